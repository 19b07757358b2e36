/**
 * Makes the validated config injectable everywhere: by class (`constructor(config: TrackerSyncConfig)`)
 * and through @nestjs/config's ConfigService (`config.get('tracker.batch_size')`). With its `source` (where it was
 * read), the daemon can read it again on a reload (ConfigReloadService).
 */
import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { ConfigSource } from './config-source';
import { TrackerSyncConfig } from './config.schema';

@Global()
@Module({})
export class AppConfigModule {
  static forRoot(config: TrackerSyncConfig, source?: ConfigSource): DynamicModule {
    return {
      module: AppConfigModule,
      imports: [ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ ...config })] })],
      providers: [
        { provide: TrackerSyncConfig, useValue: config },
        { provide: ConfigSource, useValue: source ?? null },
      ],
      exports: [TrackerSyncConfig, ConfigSource],
    };
  }
}
