import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { StoreOptions, storeDataSourceOptions, tuneSqlite } from './store-data-source';
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
          dataSourceFactory: async (dsOptions) => {
            const dataSource = await new DataSource(dsOptions!).initialize();
            await tuneSqlite(dataSource);
            return dataSource;
          },
        }),
        TypeOrmModule.forFeature(STORE_ENTITIES),
      ],
      exports: [TypeOrmModule],
    };
  }
}
