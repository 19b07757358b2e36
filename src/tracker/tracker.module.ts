import { DynamicModule, Module } from '@nestjs/common';
import { TrackerClient, TrackerClientOptions } from './tracker-client';

/** Provides one TrackerClient; options may be computed late (e.g. from loaded config). */
@Module({})
export class TrackerModule {
  static forRoot(options: TrackerClientOptions | (() => TrackerClientOptions)): DynamicModule {
    return {
      module: TrackerModule,
      providers: [
        {
          provide: TrackerClient,
          useFactory: () => new TrackerClient(typeof options === 'function' ? options() : options),
        },
      ],
      exports: [TrackerClient],
    };
  }
}
