import { Module, Provider } from '@nestjs/common';
import { ClusterRedis } from '../cluster/cluster-redis';
import { ConfigReloadChannel } from '../cluster/config-reload-channel';
import { EngineModule, SyncService } from '../engine';
import { DiscoveryService } from '../discovery/discovery.service';
import { ConfigReloadService } from './config/config-reload.service';
import { ConnectionCheckService } from './connections/connection-check.service';
import { ProjectStatusesCheck } from './connections/project-statuses-check';
import { ConnectionControlService } from './connections/connection-control.service';
import { ConnectionStatusService } from './connections/connection-status.service';
import { OpenRejectionsService } from './connections/open-rejections.service';
import { RunTriggerModule } from './runs/run-trigger.module';
import { RunsQueryService } from './runs/runs-query.service';
import { RunActivityService } from './runs/run-activity.service';
import { FlowRunsService } from './flows/flow-runs.service';
import { SyncPreviewService } from './connections/sync-preview.service';
import { ProjectBudgets } from './projects/project-budgets';
import { ProjectsQueryService } from './projects/projects-query.service';
import { SecretScrubber } from '../secrets/secret-scrubber.service';
import { ProjectDiscoveryService } from './projects/project-discovery.service';

const SERVICES = [
  SecretScrubber,
  RunsQueryService,
  ConnectionStatusService,
  ConnectionControlService,
  ConnectionCheckService,
  ProjectStatusesCheck,
  OpenRejectionsService,
  DiscoveryService,
  ConfigReloadService,
  FlowRunsService,
  RunActivityService,
  SyncPreviewService,
  ProjectBudgets,
  ProjectsQueryService,
  ProjectDiscoveryService,
];

/** Cluster mode: reloads asked of every daemon, this one named by its holder id (as on its run rows); null without Redis. */
const RELOAD_CHANNEL: Provider = {
  provide: ConfigReloadChannel,
  inject: [{ token: ClusterRedis, optional: true }, SyncService],
  useFactory: (redis: ClusterRedis | undefined, sync: SyncService) => (redis?.client ? new ConfigReloadChannel(redis.client, sync.holderId) : null),
};

/**
 * The application layer: what the admin API and the CLI both answer from (no HTTP in here). Expects from the app:
 * TrackerSyncConfig, the store, ConnectorRegistry and ProjectClients (what EngineModule needs), and the scheduler
 * (SchedulerModule, global: its `SCHEDULE_CONTROL`), which the application does not import.
 */
@Module({ imports: [EngineModule, RunTriggerModule], providers: [...SERVICES, RELOAD_CHANNEL], exports: [...SERVICES, RunTriggerModule] })
export class ApplicationModule {}
