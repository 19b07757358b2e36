import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { openStore, StoreOptions, storeDataSourceOptions } from './store-data-source';
import { STORE_ENTITIES } from './store-entities';

/** The daemon's store as TypeORM's default connection (the sandbox keeps its own named one). */
@Module({})
export class StoreModule {
  static forRoot(options: StoreOptions): DynamicModule {
    return {
      module: StoreModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => storeDataSourceOptions(options),
          // connect, migrate (under a lock on PostgreSQL), tune: the same path as createStoreDataSource
          dataSourceFactory: async (dsOptions) => openStore(dsOptions!),
        }),
        TypeOrmModule.forFeature(STORE_ENTITIES),
      ],
      exports: [TypeOrmModule],
    };
  }
}
