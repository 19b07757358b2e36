import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { createSandboxApp } from '../../src/sandbox/sandbox-app';
import { SandboxInfo } from '../../src/sandbox/sandbox-info';
import type { SandboxOptions } from '../../src/sandbox/sandbox-options';
import { SANDBOX_DATA_SOURCE } from '../../src/sandbox/storage/sandbox-data-source';

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, any>;
}

export interface CallOptions {
  project?: number | null;
  key?: string | null;
  headers?: Record<string, string>;
  raw?: string;
}

/** A sandbox on loopback port 0, spoken to with plain HTTP (fetch). */
export class SandboxHarness {
  static readonly dataSourceToken = SANDBOX_DATA_SOURCE;

  constructor(readonly app: INestApplication, readonly baseUrl: string, readonly apiKey: string, readonly projectId: number) {}

  static async start(options: Partial<SandboxOptions> = {}, prefix = 'api/v1'): Promise<SandboxHarness> {
    const app = await createSandboxApp({ db: ':memory:', seed: 'demo', apiKey: 'test-key', budget: 'off', ...options }, { prefix });
    await app.listen(0, '127.0.0.1');
    const info = app.get(SandboxInfo).getSandboxInfo();
    return new SandboxHarness(app, `${await app.getUrl()}/${prefix}`, info.apiKey, info.projectId);
  }

  post(path: string, body?: unknown, options: CallOptions = {}): Promise<Answer> {
    return this.call('POST', path, body, options);
  }

  get(path: string, options: CallOptions = {}): Promise<Answer> {
    return this.call('GET', path, undefined, options);
  }

  async call(method: string, path: string, body: unknown, options: CallOptions): Promise<Answer> {
    const url = new URL(`${this.baseUrl}/${path}`);
    const project = options.project === undefined ? this.projectId : options.project;
    if (project !== null) url.searchParams.set('project', String(project));
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...options.headers };
    const key = options.key === undefined ? this.apiKey : options.key;
    if (key !== null) headers['Api-key'] = key;
    const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const response = await fetch(url, { method, headers, body: payload });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
  }

  /** Creates an empty project owned by the harness key (isolates a test's orders). */
  async newProject(name = 'test'): Promise<number> {
    const answer = await this.post('account/project/create', { name, currency: 'RUB' }, { project: null });
    return answer.body.data.project_id as number;
  }

  close(): Promise<void> {
    return this.app.close();
  }
}
