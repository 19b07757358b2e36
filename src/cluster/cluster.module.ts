import { Module } from '@nestjs/common';
import { EngineModule } from '../engine/engine.module';
import { HeartbeatService } from './heartbeat.service';

/**
 * Several daemons on one store: this daemon's heartbeat row. Needs the store (StoreModule) and the
 * engine; optional HEARTBEAT_OPTIONS. The daemon gets it through the admin API's module.
 */
@Module({ imports: [EngineModule], providers: [HeartbeatService], exports: [HeartbeatService] })
export class ClusterModule {}
