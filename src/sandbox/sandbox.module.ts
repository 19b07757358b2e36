import { DynamicModule, Inject, Module, OnApplicationShutdown, Provider, Type } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiKeyRegistry } from './auth/api-key-registry';
import { SandboxAuthGuard } from './auth/sandbox-auth.guard';
import { SandboxBudgetService } from './budget/sandbox-budget.service';
import { ClientsController } from './clients/clients.controller';
import { ClientsService } from './clients/clients.service';
import { FaultInjectionInterceptor } from './faults/fault-injection.interceptor';
import { ManagersController } from './managers/managers.controller';
import { AddOrdersService } from './orders/add-orders.service';
import { OrderQueryService } from './orders/order-query.service';
import { OrdersController } from './orders/orders.controller';
import { ProjectsController } from './projects/projects.controller';
import { ProjectsService } from './projects/projects.service';
import { applySandboxPipeline } from './sandbox-controller.decorator';
import { SandboxInfo } from './sandbox-info';
import { SANDBOX_OPTIONS, SandboxOptions } from './sandbox-options';
import { SANDBOX_SECTION_CONTROLLERS, SANDBOX_SECTION_PROVIDERS } from './sections/index';
import { seedSandbox } from './seed/seed-sandbox';
import { SandboxDocumentStore } from './storage/document-store';
import { SANDBOX_DATA_SOURCE, openSandboxDataSource } from './storage/sandbox-data-source';
import { SandboxWriteLock } from './storage/write-lock';
import { HeavyListGate } from './http/heavy-list-gate';
import { SandboxPreparedSql } from './storage/prepared-sql';
import { OrderStatusesController } from './statuses/order-statuses.controller';
import { OrderStatusesService } from './statuses/order-statuses.service';
import { VisitsController } from './visits/visits.controller';
import { VisitsService } from './visits/visits.service';
import { WaitingOrders } from './visits/waiting-orders';

const CORE_CONTROLLERS: Type[] = [
  OrdersController, VisitsController, ClientsController, ManagersController, ProjectsController, OrderStatusesController,
];

const CORE_PROVIDERS: Provider[] = [
  SandboxWriteLock, SandboxPreparedSql, HeavyListGate, SandboxDocumentStore, ApiKeyRegistry, SandboxBudgetService, SandboxAuthGuard, FaultInjectionInterceptor,
  AddOrdersService, OrderStatusesService, OrderQueryService, VisitsService, ClientsService, ProjectsService,
  // the visits release the orders that waited for them (visits/waiting-orders.ts)
  { provide: WaitingOrders, useExisting: AddOrdersService },
];

/** Closes the sandbox database when the application shuts down. */
class SandboxDatabaseCloser implements OnApplicationShutdown {
  constructor(
    @Inject(SANDBOX_DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly preparedSql: SandboxPreparedSql,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.preparedSql.finalizeAll();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/**
 * The offline twin of the service. Routes are relative (`project/add-orders`); mount the module
 * under a prefix: `createSandboxApp(...)` for a standalone app, or
 * `RouterModule.register([{ path: 'sandbox/api/v1', module: SandboxModule }])` inside another app.
 */
@Module({})
export class SandboxModule {
  static forRoot(options: SandboxOptions): DynamicModule {
    const controllers = [...CORE_CONTROLLERS, ...SANDBOX_SECTION_CONTROLLERS];
    controllers.forEach(applySandboxPipeline);
    return {
      module: SandboxModule,
      controllers,
      providers: [
        { provide: SANDBOX_OPTIONS, useValue: options },
        { provide: SANDBOX_DATA_SOURCE, useFactory: () => openSandboxDataSource(options.db) },
        {
          provide: SandboxInfo,
          inject: [SANDBOX_DATA_SOURCE, SandboxDocumentStore, VisitsService],
          useFactory: async (dataSource: DataSource, store: SandboxDocumentStore, visits: VisitsService) => {
            const info = new SandboxInfo();
            info.set(await seedSandbox({ dataSource, store, visits, options }));
            return info;
          },
        },
        SandboxDatabaseCloser,
        ...CORE_PROVIDERS,
        ...SANDBOX_SECTION_PROVIDERS,
      ],
      exports: [SandboxInfo, SANDBOX_DATA_SOURCE, SandboxDocumentStore],
    };
  }
}
