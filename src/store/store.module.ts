import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { openStore, StoreOptions, storeDataSourceOptions } from './store-data-source';
import { STORE_REPOSITORY_PROVIDERS, STORE_REPOSITORY_TOKENS } from './store-repositories';

/**
 * The daemon's store as TypeORM's default connection (the sandbox keeps its own named one), and its
 * repositories (store-repositories.ts), which are the only way the rest of the daemon reaches it.
 */
@Module({})
export class StoreModule {
  static forRoot(options: StoreOptions): DynamicModule {
    return {
      module: StoreModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => storeDataSourceOptions(options),
          // connect, migrate (one process at a time: an advisory lock on PostgreSQL, a lock file on SQLite), tune: the same path as createStoreDataSource
          dataSourceFactory: async (dsOptions) => openStore(dsOptions!),
        }),
      ],
      providers: STORE_REPOSITORY_PROVIDERS,
      exports: STORE_REPOSITORY_TOKENS,
    };
  }
}
