import { Module } from '@nestjs/common';
import { EngineModule } from '../../engine/engine.module';
import { RunTriggerService } from './run-trigger.service';

/**
 * The one trigger path, in a module of its own: the scheduler (and later the webhooks) import it without the
 * rest of the application layer, which needs the scheduler (its ScheduleControl, provided globally).
 */
@Module({ imports: [EngineModule], providers: [RunTriggerService], exports: [RunTriggerService] })
export class RunTriggerModule {}
