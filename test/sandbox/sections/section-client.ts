import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import axios, { AxiosInstance, AxiosResponse } from 'axios';
import { createSandboxApp } from '../../../src/sandbox/sandbox-app';
import { SandboxInfo } from '../../../src/sandbox/sandbox-info';

/** A demo-seeded sandbox on loopback port 0 and an axios client bound to its project and key. */
export class SectionClient {
  private constructor(
    private readonly app: INestApplication,
    readonly http: AxiosInstance,
    readonly projectId: number,
  ) {}

  static async start(): Promise<SectionClient> {
    const app = await createSandboxApp({ db: ':memory:', seed: 'demo', apiKey: 'sections-key', budget: 'off' });
    await app.listen(0, '127.0.0.1');
    const info = app.get(SandboxInfo).getSandboxInfo();
    const http = axios.create({
      baseURL: `${await app.getUrl()}/api/v1/`,
      headers: { 'Api-key': info.apiKey, 'Content-Type': 'application/json', 'Use-Http-Code': '1' },
      params: { project: info.projectId },
      validateStatus: () => true,
    });
    return new SectionClient(app, http, info.projectId);
  }

  post(path: string, body?: unknown): Promise<AxiosResponse> {
    return this.http.post(path, body ?? {});
  }

  get(path: string, params: Record<string, unknown> = {}, body?: unknown): Promise<AxiosResponse> {
    return this.http.get(path, { params: { project: this.projectId, ...params }, data: body });
  }

  /** Raw bytes of a file answer. */
  download(method: 'get' | 'post', path: string, body?: unknown): Promise<AxiosResponse<Buffer>> {
    return this.http.request({ method, url: path, data: body, responseType: 'arraybuffer' });
  }

  close(): Promise<void> {
    return this.app.close();
  }
}

/** The answer is the service's 400 whose description names `field`. */
export function expectBadRequest(response: AxiosResponse, field: string): void {
  expect(response.status).toBe(400);
  expect(response.data).toMatchObject({ status: 'error', error: 'request_data_validation_error' });
  expect(response.data.description).toContain(field);
}

/** `YYYY-MM-DDTHH:MM:SS+0000` */
export const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;
