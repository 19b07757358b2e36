import { AlertDeliveryEntity } from './entities/alert-delivery.entity';
import { AlertStateEntity } from './entities/alert-state.entity';
import { ConnectionEntity } from './entities/connection.entity';
import { CursorEntity } from './entities/cursor.entity';
import { DaemonEntity } from './entities/daemon.entity';
import { LeaseEntity } from './entities/lease.entity';
import { OpenRejectionEntity } from './entities/open-rejection.entity';
import { RecordStateEntity } from './entities/record-state.entity';
import { RejectedRecordEntity } from './entities/rejected-record.entity';
import { ConnectorSecretEntity } from './entities/connector-secret.entity';
import { RunEntity } from './entities/run.entity';
import { StreamStateEntity } from './entities/stream-state.entity';
import { WebhookCallEntity } from './entities/webhook-call.entity';
import { InitialSchema1763800000000 } from './migrations/1763800000000-initial-schema';
import { ClusterSchema1763900000000 } from './migrations/1763900000000-cluster-schema';
import { OpenRejections1764000000000 } from './migrations/1764000000000-open-rejections';
import { WriteBack1764400000000 } from './migrations/1764400000000-write-back';
import { Alerts1764500000000 } from './migrations/1764500000000-alerts';
import { RequestBudget1764600000000 } from './migrations/1764600000000-request-budget';
import { ConnectorSecrets1764600000001 } from './migrations/1764600000001-connector-secrets';
import { WebhookCalls1764730000000 } from './migrations/1764730000000-webhook-calls';
import { OutboundRuns1764800000000 } from './migrations/1764800000000-outbound-runs';
import { LeadDeliveryEntity } from './entities/lead-delivery.entity';
import { LeadDelivery1764900000029 } from './migrations/1764900000029-lead-delivery';
import { RateLimits1765000000000 } from './migrations/1765000000000-rate-limits';
import { ConnectionTarget1765100000000 } from './migrations/1765100000000-connection-target';
import { AlertDeliveryState1765200000000 } from './migrations/1765200000000-alert-delivery-state';
import { RowProjects1765300000000 } from './migrations/1765300000000-row-projects';

export const STORE_ENTITIES = [
  ConnectionEntity,
  CursorEntity,
  StreamStateEntity,
  RunEntity,
  RecordStateEntity,
  RejectedRecordEntity,
  OpenRejectionEntity,
  LeaseEntity,
  DaemonEntity,
  AlertStateEntity,
  AlertDeliveryEntity,
  ConnectorSecretEntity,
  LeadDeliveryEntity,
  WebhookCallEntity,
];

/** In order; each runs once (TypeORM keeps the list in its `migrations` table). */
export const STORE_MIGRATIONS = [InitialSchema1763800000000, ClusterSchema1763900000000, OpenRejections1764000000000, WriteBack1764400000000, Alerts1764500000000, RequestBudget1764600000000, ConnectorSecrets1764600000001, WebhookCalls1764730000000, OutboundRuns1764800000000, LeadDelivery1764900000029, RateLimits1765000000000, ConnectionTarget1765100000000, AlertDeliveryState1765200000000, RowProjects1765300000000];
