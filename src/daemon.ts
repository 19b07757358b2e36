import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { setupOpenApi } from './admin/openapi';
import { ConfigReloadAnswer, ConfigReloadService } from './application/config/config-reload.service';
import { AppModule } from './app.module';
import { BootContext, prepareBoot, PrepareOptions, SANDBOX_PATH } from './bootstrap';
import { SyncService } from './engine';
import { MountedSandboxExceptionFilter } from './sandbox/errors/mounted-sandbox-exception.filter';
import { SANDBOX_BODY_LIMIT } from './sandbox/sandbox-app';
import { setupSandboxOpenApi } from './sandbox/sandbox-openapi';
import { ProjectClients } from './projects/project-clients';
import { SharedRequestBudget } from './budget/shared-request-budget';
import { mountQueueDashboard } from './admin/queues/queue-dashboard';
import { RunsQueueView } from './cluster/runs-queue-view';
import { AdminTokenService } from './admin/auth/admin-token.service';
import { join } from 'node:path';
import { ADMIN_TOKEN_FILE, readTokenFile } from './config/admin-token-file';
import { mountWebhookBody } from './webhooks/webhook-body';
import { RunWorker } from './scheduler/run-worker';

/** The embedded sandbox's own OpenAPI UI (its JSON at /sandbox/docs-json); /docs is the admin API's. */
export const SANDBOX_DOCS_PATH = 'sandbox/docs';

export interface Daemon {
  app: INestApplication;
  boot: BootContext;
  /** the base URL of this daemon, e.g. http://127.0.0.1:3000 */
  url: string;
  start(): Promise<void>;
  /** SIGTERM: lets the batch in flight finish and checkpoint, then closes everything */
  stop(): Promise<void>;
  /** SIGHUP: reads the config file again (ConfigReloadService); a file that does not load is refused, the old config stays */
  reload(): Promise<ConfigReloadAnswer>;
}

/** Binds the HTTP server: rejects with the listen error (EADDRINUSE, EACCES) as app.listen would. */
function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
}

/** The generated admin token's file when this start uses it (not ADMIN_TOKEN nor admin.token), else null. */
function storedTokenFile(boot: BootContext): string | null {
  if (process.env.ADMIN_TOKEN?.trim() || boot.config.admin?.token?.trim()) return null;
  return readTokenFile(boot.config.data_dir) ? join(boot.config.data_dir, ADMIN_TOKEN_FILE) : null;
}

export async function createDaemonApp(options: PrepareOptions = {}): Promise<Daemon> {
  const boot = await prepareBoot(options);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(boot, { http: true }), {
    bufferLogs: true,
    bodyParser: false,
  });
  app.useLogger(app.get(PinoNestLogger));
  // CRM webhooks keep their raw bytes (signatures are over them), at most 1 MB: mounted before the JSON parser
  mountWebhookBody(app);
  // the embedded sandbox takes add-orders batches of thousands of orders
  app.useBodyParser('json', { limit: SANDBOX_BODY_LIMIT });
  // malformed JSON and unknown routes under the sandbox answer the service's error body; other routes keep Nest's
  if (boot.sandbox) app.useGlobalFilters(new MountedSandboxExceptionFilter(`/${SANDBOX_PATH}`, app.getHttpAdapter()));
  setupOpenApi(app);
  if (boot.sandbox) setupSandboxOpenApi(app, SANDBOX_DOCS_PATH);
  // cluster mode: BullMQ's dashboard, behind the admin token
  if (boot.config.cluster?.redis) mountQueueDashboard(app, app.get(RunsQueueView), app.get(AdminTokenService));

  const host = boot.config.server.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${boot.port}`;
  return {
    app,
    boot,
    url,
    async start() {
      // bind first: Nest's listen() initialises the app (the scheduler's start-up runs) before it binds, so a port
      // in use started a run that the failed start then left `running`. Requests in the moment before init get 404.
      await listen(app.getHttpServer() as Server, boot.port, host);
      // read before init, which generates the token file on the first start (and prints the token, once)
      const tokenKeptEarlier = storedTokenFile(boot);
      await app.init();
      app.flushLogs();
      // cluster mode: a reload asked of another daemon reads this daemon's file again too
      app.get(ConfigReloadService).followCluster();
      boot.logger.info(`tracker-sync listening on ${url} (status page /, admin API /api, OpenAPI /docs, /metrics, /health, CRM webhooks /hooks)`);
      // later starts print no token: say where it is (never the token itself), or the user is left searching
      if (tokenKeptEarlier) boot.logger.info(`admin token: in ${tokenKeptEarlier} (generated at the first start; or set ADMIN_TOKEN)`);
      if (boot.sandbox) {
        boot.logger.info(`embedded sandbox: ${url}/${SANDBOX_PATH} (project 1, OpenAPI /${SANDBOX_DOCS_PATH}); set TRACKER_BASE_URL, TRACKER_API_KEY and TRACKER_PROJECT for the real service`);
      } else {
        boot.logger.info(`service: ${boot.tracker.baseUrl} (project ${boot.tracker.project ?? '?'})`);
      }
    },
    reload() {
      return app.get(ConfigReloadService).reload();
    },
    async stop() {
      // batches waiting for a project's shared request budget are not in flight: they must not hold the shutdown
      app.get(ProjectClients, { strict: false })?.stop();
      // cluster mode: take no new job; the jobs going here end with their runs (interrupted: retried elsewhere)
      const workerStopped = app.get(RunWorker, { strict: false }).stop();
      await app.get(SyncService).shutdown(8_000);
      await workerStopped;
      await app.close();
    },
  };
}
