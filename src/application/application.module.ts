import { Module } from '@nestjs/common';
import { EngineModule } from '../engine/engine.module';
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

/**
 * The application layer: what the admin API and the CLI both answer from (no HTTP in here). Expects from the app:
 * TrackerSyncConfig, the store, ConnectorRegistry and ProjectClients (what EngineModule needs), and the scheduler
 * (SchedulerModule, global: its `SCHEDULE_CONTROL`), which the application does not import.
 */
@Module({ imports: [EngineModule, RunTriggerModule], providers: SERVICES, exports: [...SERVICES, RunTriggerModule] })
export class ApplicationModule {}
