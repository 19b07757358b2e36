import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { createSandboxApp } from '../../src/sandbox/sandbox-app';
import { SandboxInfo } from '../../src/sandbox/sandbox-info';
import { grantProject } from '../../src/sandbox/projects/projects.service';
import { SANDBOX_DATA_SOURCE } from '../../src/sandbox/storage/sandbox-data-source';
import type { DataSource } from 'typeorm';
import { TrackerClient, TrackerClientOptions, TrackerRequestEvent } from '../../src/tracker';

/**
 * A demo-seeded sandbox on loopback port 0 and a TrackerClient pointed at it. The client's
 * `onRequest` hook records every operation the sandbox acknowledged (HTTP 200), so each file
 * can prove which operations of TRACKER_OPERATIONS it really exercised.
 */
export class ContractSandbox {
  /** clientMethod of every operation answered with HTTP 200 by the sandbox. */
  readonly exercised = new Set<string>();
  private readonly clients: TrackerClient[] = [];

  private constructor(
    private readonly app: INestApplication,
    /** 'http://127.0.0.1:<port>/api/v1' */
    readonly baseUrl: string,
    readonly apiKey: string,
    readonly projectId: string,
  ) {}

  /** Seed 'none' still creates project 1 and its key (the budget test needs nothing more). */
  static async start(budget: 'on' | 'off' = 'off', seed: 'demo' | 'none' = 'demo'): Promise<ContractSandbox> {
    const app = await createSandboxApp({ db: ':memory:', seed, apiKey: 'contract-demo-key', budget });
    await app.listen(0, '127.0.0.1');
    const info = app.get(SandboxInfo).getSandboxInfo();
    const port = (app.getHttpServer().address() as { port: number }).port;
    return new ContractSandbox(app, `http://127.0.0.1:${port}/api/v1`, info.apiKey, String(info.projectId));
  }

  /** The client as the daemon would build it; no client-side limits, fast retries. */
  client(overrides: Partial<TrackerClientOptions> = {}): TrackerClient {
    const client = new TrackerClient({
      baseUrl: this.baseUrl,
      apiKey: this.apiKey,
      project: this.projectId,
      rateLimit: 'off',
      retryBaseMs: 10,
      timeoutMs: 10_000,
      onRequest: (event: TrackerRequestEvent) => {
        if (event.status === 200) this.exercised.add(event.operation);
      },
      ...overrides,
    });
    this.clients.push(client);
    return client;
  }

  /**
   * Gives `apiKey` access to `projectId` (creating the key). The specification has no operation
   * that issues keys, so a second key comes from the sandbox's own storage.
   */
  async grantKey(apiKey: string, projectId: number): Promise<void> {
    const dataSource = this.app.get<DataSource>(SANDBOX_DATA_SOURCE);
    await dataSource.transaction((manager) => grantProject(manager, apiKey, projectId));
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.close()));
    await this.app.close();
  }
}
