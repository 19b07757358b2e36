import { Inject, Injectable, Optional } from '@nestjs/common';
import { defaultEngineLogger, ENGINE_LOGGER, EngineLogger } from './engine-logger';
import { ENGINE_OPTIONS, EngineOptions, ResolvedEngineOptions, resolveEngineOptions } from './engine-options';

/**
 * The engine's options, resolved once per engine (the holder id is made here: every part of one engine
 * must use the same), and its logger.
 */
export interface EngineSettings extends ResolvedEngineOptions {}

@Injectable()
export class EngineSettings {
  readonly logger: EngineLogger;

  constructor(
    @Optional() @Inject(ENGINE_OPTIONS) options?: EngineOptions,
    @Optional() @Inject(ENGINE_LOGGER) logger?: EngineLogger,
  ) {
    Object.assign(this, resolveEngineOptions(options ?? {}));
    this.logger = logger ?? defaultEngineLogger();
  }
}
