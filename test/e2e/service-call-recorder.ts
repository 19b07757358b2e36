import * as http from 'http';
import { AddressInfo } from 'net';

/** One call that went through the recorder to the service (the sandbox). */
export interface ServiceCall {
  method: string;
  /** the request's path, e.g. '/v1/project/integration/order/list' */
  path: string;
  /** the query string, without `?` ('' when none) */
  query: string;
  /** the request's JSON body */
  body: any;
  /** the answer's JSON body */
  answer: any;
  /** when it arrived (Date.now()) */
  at: number;
}

/**
 * A loopback proxy in front of the sandbox that records every call with its arrival time, so a test can
 * measure how the daemon spaces its calls (e.g. the order list's per-minute limits) without touching the client.
 */
export class ServiceCallRecorder {
  readonly calls: ServiceCall[] = [];
  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(target: string): Promise<ServiceCallRecorder> {
    const base = new URL(target);
    let recorder: ServiceCallRecorder;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      const at = Date.now();
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const path = (req.url ?? '/').split('?')[0];
        const forward = http.request(
          { host: base.hostname, port: base.port, method: req.method, path: req.url, headers: { ...req.headers, host: base.host } },
          (answer) => {
            const parts: Buffer[] = [];
            answer.on('data', (part: Buffer) => parts.push(part));
            answer.on('end', () => {
              const body = Buffer.concat(parts);
              recorder.calls.push({ method: req.method ?? 'GET', path, query: (req.url ?? '').split('?')[1] ?? '', body: parse(text), answer: parse(body.toString('utf8')), at });
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(body);
            });
          },
        );
        forward.on('error', (error) => {
          res.writeHead(502);
          res.end(String(error));
        });
        forward.end(text);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    recorder = new ServiceCallRecorder(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}${base.pathname.replace(/\/$/, '')}`);
    return recorder;
  }

  /** Arrival times of the calls to this path. */
  timesOf(path: string): number[] {
    return this.calls.filter((call) => call.path.endsWith(path)).map((call) => call.at);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function parse(text: string): any {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}
