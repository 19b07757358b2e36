/**
 * Makes the validated config injectable everywhere: by class (`constructor(config: TrackerSyncConfig)`)
 * and through @nestjs/config's ConfigService (`config.get('tracker.batch_size')`).
 */
import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TrackerSyncConfig } from './config.schema';

@Global()
@Module({})
export class AppConfigModule {
  static forRoot(config: TrackerSyncConfig): DynamicModule {
    return {
      module: AppConfigModule,
      imports: [ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ ...config })] })],
      providers: [{ provide: TrackerSyncConfig, useValue: config }],
      exports: [TrackerSyncConfig],
    };
  }
}
