import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { ConnectorRegistry } from '../../src/connectors/connector-registry';
import { ConnectorsModule } from '../../src/connectors/connectors.module';

@Module({ imports: [ConnectorsModule.forRootAsync({ useFactory: async () => ['/nonexistent/plugins'] })] })
class HostModule {}

describe('ConnectorsModule', () => {
  it('provides a loaded ConnectorRegistry; a bad plugin path is a recorded failure, not a crash', async () => {
    const app = await NestFactory.createApplicationContext(HostModule, { logger: false });
    try {
      const registry = app.get(ConnectorRegistry);
      expect(registry.get('generic-crm')).toBeDefined();
      expect(registry.get('example-custom')).toBeDefined();
      expect(registry.failures).toContainEqual({ path: '/nonexistent/plugins', reason: 'folder does not exist' });
    } finally {
      await app.close();
    }
  });
});
