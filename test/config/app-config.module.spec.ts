import { Injectable, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { AppConfigModule } from '../../src/config/app-config.module';
import { TrackerSyncConfig } from '../../src/config/config.schema';
import { validateConfig } from '../../src/config/load-config';

@Injectable()
class NeedsConfig {
  constructor(readonly config: TrackerSyncConfig, readonly configService: ConfigService) {}
}

@Module({ providers: [NeedsConfig] })
class FeatureModule {}

describe('AppConfigModule', () => {
  it('provides the loaded config by class and through ConfigService, in any module', async () => {
    const config = validateConfig({ tracker: { batch_size: 123 } }, { env: {} });
    const app = await NestFactory.createApplicationContext(
      { module: class RootModule {}, imports: [AppConfigModule.forRoot(config), FeatureModule] },
      { logger: false },
    );
    try {
      const feature = app.get(NeedsConfig);
      expect(feature.config).toBe(config);
      expect(feature.configService.get('tracker.batch_size')).toBe(123);
      expect(feature.configService.get('server.port')).toBe(3000);
    } finally {
      await app.close();
    }
  });
});
