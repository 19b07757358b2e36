import { ConnectionEntity } from './entities/connection.entity';
import { CursorEntity } from './entities/cursor.entity';
import { LeaseEntity } from './entities/lease.entity';
import { RecordStateEntity } from './entities/record-state.entity';
import { RejectedRecordEntity } from './entities/rejected-record.entity';
import { RunEntity } from './entities/run.entity';
import { StreamStateEntity } from './entities/stream-state.entity';
import { InitialSchema1763800000000 } from './migrations/1763800000000-initial-schema';

export const STORE_ENTITIES = [
  ConnectionEntity,
  CursorEntity,
  StreamStateEntity,
  RunEntity,
  RecordStateEntity,
  RejectedRecordEntity,
  LeaseEntity,
];

/** In order; each runs once (TypeORM keeps the list in its `migrations` table). */
export const STORE_MIGRATIONS = [InitialSchema1763800000000];
