import { DynamicModule, Global, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { AdminServicesModule } from '../admin/admin-services.module';
import { AppModule } from '../app.module';
import { BootContext, prepareBoot } from '../bootstrap';
import { SyncService } from '../engine';
import { SANDBOX_BODY_LIMIT } from '../sandbox/sandbox-app';
import { SCHEDULER_OPTIONS, SchedulerOptions } from '../scheduler/scheduler-options';
import type { CliContext } from './cli-context';

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
  const boot = await prepareBoot({ argv, env, ephemeralPort: true });
  // the CLI prints its own progress and summary; the run's log lines only when asked for
  if (!env.LOG_LEVEL) boot.logger.level = 'warn';

  @Module({ imports: [AppModule.forRoot(boot, { http: false }), CliSchedulerOptionsModule.forRoot(), AdminServicesModule] })
  class CliRootModule {}

  const app = boot.sandbox
    ? await sandboxServingApp(CliRootModule, boot)
    : await NestFactory.createApplicationContext(CliRootModule, { bufferLogs: true });
  // Nest's and the engine's lines through the daemon's logger: same format, same level
  app.useLogger(app.get(PinoNestLogger));
  return {
    context: { app, config: boot.config },
    boot,
    close: () => closeApp(app),
  };
}

async function sandboxServingApp(root: new () => object, boot: BootContext): Promise<INestApplicationContext> {
  const app = await NestFactory.create<NestExpressApplication>(root, { bufferLogs: true, bodyParser: false });
  app.useBodyParser('json', { limit: SANDBOX_BODY_LIMIT });
  await app.listen(boot.port, new URL(boot.tracker.baseUrl).hostname.replace(/^\[|\]$/g, ''));
  return app;
}

async function closeApp(app: INestApplicationContext): Promise<void> {
  await app.get(SyncService).shutdown(SHUTDOWN_TIMEOUT_MS);
  await app.close();
}
