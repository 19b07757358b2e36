import { DynamicModule, Global, Module, Type } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { ALERTS_OPTIONS, AlertsOptions } from './alerts/alerts-options';
import type { BootContext } from './bootstrap';
import { SANDBOX_PATH } from './bootstrap';
import { AppConfigModule } from './config';
import { ConnectorRegistry } from './connectors/connector-registry';
import { EngineModule } from './engine/engine.module';
import { MetricsSubscriber } from './observability/metrics-subscriber';
import { MetricsService } from './observability/metrics.service';
import { ObservabilityModule } from './observability/observability.module';
import { sandboxImports } from './sandbox/sandbox-app';
import { SchedulerModule } from './scheduler/scheduler.module';
import { StoreModule } from './store/store.module';
import { BudgetLimiters } from './budget/budget-limiters';
import { SharedRequestBudget } from './budget/shared-request-budget';
import { ClusterRedis } from './cluster/cluster-redis';
import { RedisLock } from './cluster/redis-lock';
import { DEFAULT_PROJECT } from './config/project-targets';
import { ProjectClients } from './projects/project-clients';
import { ConnectorSecretStore } from './store/repositories/connector-secret.store';
import { StoreRepositories } from './store/store-repositories';
import { TrackerClient } from './tracker/tracker-client';

export interface AppModuleOptions {
  /** the HTTP surface (admin API, status page); the CLI leaves it out */
  http: boolean;
}

/** Wires the modules; nothing else. The order of `imports` does not matter to Nest. */
@Module({})
export class AppModule {
  static forRoot(boot: BootContext, options: AppModuleOptions): DynamicModule {
    const { config } = boot;
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(config, boot.source),
        LoggerModule.forRoot({ pinoHttp: { logger: boot.logger, autoLogging: false, quietReqLogger: true } }),
        ObservabilityModule,
        StoreModule.forRoot({ dataDir: config.data_dir, url: config.store.url }),
        SharedServicesModule.forRoot(boot),
        EngineModule,
        SchedulerModule,
        // alerts belong to the daemon (a CLI run ends with its process, before a retry could go out)
        ...(options.http ? httpModules() : []),
        ...(options.http && config.cluster?.redis ? [queueViewModule(config.cluster.redis)] : []),
        ...(boot.sandbox ? sandboxImports(boot.sandbox, SANDBOX_PATH) : []),
      ],
      providers: [MetricsSubscriber],
    };
  }
}

/**
 * The HTTP surface's modules, required only when it is served: a CLI process (http: false) never loads the admin
 * API, the status page, the alerts (nodemailer) or the webhooks, and their code takes none of its memory.
 */
function httpModules(): Type[] {
  /* eslint-disable @typescript-eslint/no-require-imports */
  return [
    (require('./admin/admin.module') as typeof import('./admin/admin.module')).AdminModule,
    (require('./status-page/status-page.module') as typeof import('./status-page/status-page.module')).StatusPageModule,
    (require('./alerts/alerts.module') as typeof import('./alerts/alerts.module')).AlertsModule,
    (require('./webhooks/webhooks.module') as typeof import('./webhooks/webhooks.module')).WebhooksModule,
  ];
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** Cluster mode's view of the runs queue (the dashboard, its metrics): bullmq is required only then. */
function queueViewModule(redis: string): DynamicModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./cluster/queue-view.module') as typeof import('./cluster/queue-view.module')).QueueViewModule.forRoot(redis);
}

/**
 * The pre-loaded connector registry and the typed clients, one per project (ProjectClients), reporting their
 * requests to the metrics. Each client draws from its project's budget (src/budget/: Redis in cluster mode, else the
 * store), shared with every daemon and CLI process of the installation (none when the project's rate_limit is off). `TrackerClient` and
 * `SharedRequestBudget` stay injectable as the `tracker:` project's (the default project's).
 */
@Global()
@Module({})
class SharedServicesModule {
  static forRoot(boot: BootContext): DynamicModule {
    return {
      module: SharedServicesModule,
      providers: [
        { provide: ConnectorRegistry, useValue: boot.registry },
        { provide: ClusterRedis, useFactory: () => new ClusterRedis(boot.config.cluster?.redis) },
        {
          // the budgets' counters: Redis in cluster mode, else the store every process of the installation opens
          provide: BudgetLimiters,
          inject: [ClusterRedis, StoreRepositories],
          useFactory: (redis: ClusterRedis, stores: StoreRepositories) => (redis.client ? BudgetLimiters.redis(redis.client) : BudgetLimiters.store(stores.budgetStore)),
        },
        {
          // cluster mode: OAuth2 refreshes (the connectors' rotating secrets) lock in Redis, not in the store's rows
          provide: RedisLock,
          inject: [ClusterRedis, ConnectorSecretStore],
          useFactory: (redis: ClusterRedis, secrets: ConnectorSecretStore) => {
            if (!redis.client) return null;
            const lock = new RedisLock(redis.client);
            secrets.useLock(lock);
            return lock;
          },
        },
        {
          provide: ProjectClients,
          inject: [BudgetLimiters, MetricsService],
          useFactory: (limiters: BudgetLimiters, metrics: MetricsService) => {
            const clients = new ProjectClients({
              config: boot.config,
              defaults: boot.tracker,
              limiters,
              logger: { warn: (m) => boot.logger.warn(m), debug: (m) => boot.logger.debug(m) },
              onRequest: (event, project) => metrics.observeRequest({ ...event, project }),
            });
            metrics.watchBudgets(() => clients.budgets().map(({ project, budget }) => ({ project, ...budget.stats() })));
            return clients;
          },
        },
        { provide: SharedRequestBudget, inject: [ProjectClients], useFactory: (clients: ProjectClients) => clients.budget(DEFAULT_PROJECT) },
        { provide: TrackerClient, inject: [ProjectClients], useFactory: (clients: ProjectClients) => clients.client(DEFAULT_PROJECT) },
        { provide: ALERTS_OPTIONS, useValue: alertsOptions(boot) },
      ],
      exports: [ConnectorRegistry, ClusterRedis, BudgetLimiters, ProjectClients, SharedRequestBudget, TrackerClient, ALERTS_OPTIONS],
    };
  }
}

/** Alerts link to this daemon's status page (the port resolved, a wildcard host shown as loopback). */
function alertsOptions(boot: BootContext): AlertsOptions {
  const configured = boot.config.server.host;
  const host = ['0.0.0.0', '::', ''].includes(configured) ? '127.0.0.1' : configured;
  return { statusUrl: `http://${host.includes(':') ? `[${host}]` : host}:${boot.port}/` };
}
