import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TrackerClient, TrackerModule } from '../../src/tracker';
import { ScriptedServer } from './scripted-server';

describe('TrackerModule', () => {
  it('provides a TrackerClient built from late options', async () => {
    const server = await ScriptedServer.start();
    let built = 0;
    @Module({ imports: [TrackerModule.forRoot(() => (built++, { baseUrl: server.url, apiKey: 'k', project: '3', rateLimit: 'off' }))] })
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const client = app.get(TrackerClient);
    expect(client).toBeInstanceOf(TrackerClient);
    await client.managers.list();
    expect(server.requests[0].query.get('project')).toBe('3');
    expect(built).toBe(1);
    await app.close();
    await server.close();
  });
});
