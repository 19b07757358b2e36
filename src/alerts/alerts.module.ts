import { Module } from '@nestjs/common';
import { EngineModule } from '../engine/engine.module';
import { AlertsService } from './alerts.service';

/**
 * Alerts for the daemon. Expects in the app: TrackerSyncConfig, the store, MetricsService, and what EngineModule
 * needs; optional: ALERTS_OPTIONS (alerts.service.ts).
 */
@Module({ imports: [EngineModule], providers: [AlertsService], exports: [AlertsService] })
export class AlertsModule {}
