import { DynamicModule, Logger, Module, ModuleMetadata } from '@nestjs/common';
import { ConnectorRegistry } from './connector-registry';
import { loadConnectors } from './plugin-loader';

export interface ConnectorsModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: any[];
  /** the extra plugin folders (config `connector_paths`) */
  useFactory: (...deps: any[]) => string[] | Promise<string[]>;
}

/** Provides the ConnectorRegistry, loaded once at start-up (built-ins + plugins). */
@Module({})
export class ConnectorsModule {
  static forRoot(connectorPaths: string[] = []): DynamicModule {
    return ConnectorsModule.forRootAsync({ useFactory: () => connectorPaths });
  }

  static forRootAsync(options: ConnectorsModuleAsyncOptions): DynamicModule {
    return {
      module: ConnectorsModule,
      global: true,
      imports: options.imports ?? [],
      providers: [
        {
          provide: ConnectorRegistry,
          inject: options.inject ?? [],
          useFactory: async (...deps: any[]) => loadConnectors(await options.useFactory(...deps), new Logger('Connectors')),
        },
      ],
      exports: [ConnectorRegistry],
    };
  }
}
