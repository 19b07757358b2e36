import type { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BudgetStoreHandle, budgetStoreOf } from './budget-store';
import { CheckpointWriter } from './checkpoint-writer';
import { AlertStore } from './repositories/alert.store';
import { ConnectionStore } from './repositories/connection.store';
import { CursorStore } from './repositories/cursor.store';
import { DaemonStore } from './repositories/daemon.store';
import { LeaseStore } from './repositories/lease.store';
import { OpenRejectionStore } from './repositories/open-rejection.store';
import { RecordStateStore } from './repositories/record-state.store';
import { RejectedRecordStore } from './repositories/rejected-record.store';
import { ConnectorSecretStore } from './repositories/connector-secret.store';
import { RunStore } from './repositories/run.store';
import { OutboundStore, WriteBackStore } from './repositories/outbound.store';
import { WebhookCallStore } from './repositories/webhook-call.store';
import { SerialWriter, serialWriter } from './serial-writer';

/** The store's connection (TypeORM's DataSource), for code that only passes it on to StoreRepositories. */
export type StoreDataSource = DataSource;

/**
 * Every repository of one store, sharing its one serial writer. StoreModule provides each of them to Nest;
 * code outside Nest (tests, benches) builds this from a DataSource.
 */
export class StoreRepositories {
  readonly writer: SerialWriter;
  readonly checkpoints: CheckpointWriter;
  readonly connections: ConnectionStore;
  readonly cursors: CursorStore;
  readonly daemons: DaemonStore;
  readonly leases: LeaseStore;
  readonly openRejections: OpenRejectionStore;
  readonly recordStates: RecordStateStore;
  readonly rejected: RejectedRecordStore;
  readonly connectorSecrets: ConnectorSecretStore;
  readonly runs: RunStore;
  readonly alerts: AlertStore;
  readonly outbound: OutboundStore;
  /** write-back's view of `outbound` */
  readonly writeBack: WriteBackStore;
  readonly webhookCalls: WebhookCallStore;
  /** where the request budgets' counters go (src/budget/) */
  readonly budgetStore: BudgetStoreHandle;

  constructor(dataSource: DataSource) {
    this.writer = serialWriter(dataSource);
    this.checkpoints = new CheckpointWriter(this.writer);
    this.connections = new ConnectionStore(dataSource, this.writer);
    this.cursors = new CursorStore(dataSource, this.writer);
    this.daemons = new DaemonStore(dataSource, this.writer);
    this.leases = new LeaseStore(dataSource, this.writer);
    this.openRejections = new OpenRejectionStore(dataSource);
    this.recordStates = new RecordStateStore(dataSource);
    this.rejected = new RejectedRecordStore(dataSource);
    this.connectorSecrets = new ConnectorSecretStore(dataSource, this.writer);
    this.runs = new RunStore(dataSource, this.writer);
    this.alerts = new AlertStore(dataSource, this.writer);
    this.outbound = new OutboundStore(dataSource, this.writer);
    this.writeBack = new WriteBackStore(this.outbound);
    this.webhookCalls = new WebhookCallStore(dataSource, this.writer);
    this.budgetStore = budgetStoreOf(dataSource);
  }
}

const EACH: [Function, keyof StoreRepositories][] = [
  [SerialWriter, 'writer'],
  [CheckpointWriter, 'checkpoints'],
  [ConnectionStore, 'connections'],
  [CursorStore, 'cursors'],
  [DaemonStore, 'daemons'],
  [LeaseStore, 'leases'],
  [OpenRejectionStore, 'openRejections'],
  [RecordStateStore, 'recordStates'],
  [RejectedRecordStore, 'rejected'],
  [ConnectorSecretStore, 'connectorSecrets'],
  [RunStore, 'runs'],
  [AlertStore, 'alerts'],
  [OutboundStore, 'outbound'],
  [WriteBackStore, 'writeBack'],
  [WebhookCallStore, 'webhookCalls'],
];

/** Each repository of `stores` by its class: what StoreModule provides, for wiring outside Nest (createEngine). */
export function repositoriesByClass(stores: StoreRepositories): Map<Function, unknown> {
  return new Map<Function, unknown>([[StoreRepositories, stores], ...EACH.map(([token, key]): [Function, unknown] => [token, stores[key]])]);
}

/** StoreRepositories and each repository by its class, for StoreModule. */
export const STORE_REPOSITORY_PROVIDERS: Provider[] = [
  { provide: StoreRepositories, inject: [DataSource], useFactory: (dataSource: DataSource) => new StoreRepositories(dataSource) },
  ...EACH.map(([token, key]): Provider => ({ provide: token, inject: [StoreRepositories], useFactory: (all: StoreRepositories) => all[key] })),
];

export const STORE_REPOSITORY_TOKENS = [StoreRepositories, ...EACH.map(([token]) => token)];
