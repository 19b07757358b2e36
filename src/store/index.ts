// What the rest of the daemon uses: the repositories and the plain rows they hand out (records.ts). The entity
// classes are the store's own wiring (store-entities.ts, the data source, migrations): not exported here.
export * from './records';
export * from './open-rejection-key';
export * from './store-entities';
export * from './store-data-source';
export * from './store.module';
export * from './store-repositories';
export * from './checkpoint-writer';
export * from './serial-writer';
export * from './repositories/connection.store';
export * from './repositories/cursor.store';
export * from './repositories/daemon.store';
export * from './repositories/lease.store';
export * from './repositories/open-rejection.store';
export * from './repositories/record-state.store';
export * from './repositories/rejected-record.store';
export * from './repositories/run.store';
export * from '../runs/run-vocabulary';
export * from './repositories/connector-secret.store';
export * from './repositories/alert.store';
export * from './repositories/outbound.store';
export * from './repositories/webhook-call.store';
