import { DynamicModule, Global, INestApplicationContext, LoggerService, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { ApplicationModule } from '../application/application.module';
import { RunActivityService } from '../application/runs/run-activity.service';
import { AppModule } from '../app.module';
import { BootContext, prepareBoot } from '../bootstrap';
import { SANDBOX_BODY_LIMIT } from '../sandbox/sandbox-app';
import { SCHEDULER_OPTIONS, SchedulerOptions } from '../scheduler/scheduler-options';
import type { CliContext } from './cli-context';
import { BootLogger, QuietFrameworkLogger } from './cli-logger';
import { cliLogSink } from './output/log-sink';

/** A run interrupted by Ctrl-C gets this long to checkpoint its batch in flight. */
const SHUTDOWN_TIMEOUT_MS = 8_000;

export interface CliApp {
  context: CliContext;
  boot: BootContext;
  close(): Promise<void>;
}

/** The CLI never starts background runs: no cron timers, no run_on_start. */
@Global()
@Module({})
class CliSchedulerOptionsModule {
  static forRoot(): DynamicModule {
    const options: SchedulerOptions = { runJobs: false };
    return {
      module: CliSchedulerOptionsModule,
      providers: [{ provide: SCHEDULER_OPTIONS, useValue: options }],
      exports: [SCHEDULER_OPTIONS],
    };
  }
}

/**
 * The daemon's modules minus its HTTP surface (admin API, status page), plus the services the
 * admin API answers from. When the config names no service, the embedded sandbox must answer
 * somewhere: then this is an HTTP app listening on a free loopback port, serving only the sandbox.
 */
export async function createCliApp(argv: string[], env: NodeJS.ProcessEnv): Promise<CliApp> {
  // stdout is the command's answer: log lines go to stderr, at the configured level (log.level, LOG_LEVEL)
  const boot = await prepareBoot({ argv, env, ephemeralPort: true, logDestination: cliLogSink });

  @Module({ imports: [AppModule.forRoot(boot, { http: false }), CliSchedulerOptionsModule.forRoot(), ApplicationModule] })
  class CliRootModule {}

  // from the first line on, through the daemon's logger: a boot that fails halfway prints nothing on stdout
  const logger = new QuietFrameworkLogger(new BootLogger(boot.logger));
  const app = boot.sandbox
    ? await sandboxServingApp(CliRootModule, boot, logger)
    : await NestFactory.createApplicationContext(CliRootModule, { logger });
  useQuietLogger(app);
  return {
    context: { app, config: boot.config, json: false },
    boot,
    close: () => closeApp(app),
  };
}

async function sandboxServingApp(root: new () => object, boot: BootContext, logger: LoggerService): Promise<INestApplicationContext> {
  const app = await NestFactory.create<NestExpressApplication>(root, { logger, bodyParser: false });
  app.useBodyParser('json', { limit: SANDBOX_BODY_LIMIT });
  await app.listen(boot.port, new URL(boot.tracker.baseUrl).hostname.replace(/^\[|\]$/g, ''));
  return app;
}

/** Nest's and the engine's lines through the daemon's logger (same format, same level), minus Nest's start-up chatter. */
function useQuietLogger(app: INestApplicationContext): void {
  app.useLogger(new QuietFrameworkLogger(app.get(PinoNestLogger)));
}

async function closeApp(app: INestApplicationContext): Promise<void> {
  await app.get(RunActivityService).stopRuns(SHUTDOWN_TIMEOUT_MS);
  await app.close();
}
