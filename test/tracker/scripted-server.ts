import http from 'node:http';
import { AddressInfo } from 'node:net';

/** A request as the server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: unknown;
  /** ms since the server started (performance-free, Date based is enough here). */
  at: number;
}

/** What to answer. An object body is sent as JSON; a Buffer or string as is. */
export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  delayMs?: number;
  /** Drop the connection without answering (a network error for the client). */
  destroy?: boolean;
}

export type Responder = (req: RecordedRequest) => ScriptedAnswer;

/**
 * A real HTTP server on loopback for client tests: records every request and answers
 * from a queue of scripted answers, then from a fallback responder.
 */
export class ScriptedServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: ScriptedAnswer[] = [];
  private fallback: Responder = () => ({ body: { status: 'success' } });
  private readonly started = Date.now();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<ScriptedServer> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const scripted = new ScriptedServer(server, `http://127.0.0.1:${port}/api/v1`);
    server.on('request', (req, res) => scripted.handle(req, res));
    return scripted;
  }

  /** Answers used in order, one per request, before the fallback. */
  script(...answers: ScriptedAnswer[]): this {
    this.queue.push(...answers);
    return this;
  }

  respondWith(responder: Responder): this {
    this.fallback = responder;
    return this;
  }

  /** Forget recorded requests and pending answers between tests. */
  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
    this.fallback = () => ({ body: { status: 'success' } });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://localhost');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: url.pathname.replace(/^\/api\/v1/, ''),
        query: url.searchParams,
        headers: req.headers,
        rawBody,
        body: parse(rawBody),
        at: Date.now() - this.started,
      };
      this.requests.push(recorded);
      const answer = this.queue.shift() ?? this.fallback(recorded);
      setTimeout(() => send(res, answer), answer.delayMs ?? 0);
    });
  }
}

function send(res: http.ServerResponse, answer: ScriptedAnswer): void {
  if (answer.destroy) {
    res.socket?.destroy();
    return;
  }
  const isRaw = Buffer.isBuffer(answer.body) || typeof answer.body === 'string';
  const payload = isRaw ? (answer.body as Buffer | string) : JSON.stringify(answer.body ?? { status: 'success' });
  res.writeHead(answer.status ?? 200, {
    'content-type': isRaw ? 'application/octet-stream' : 'application/json',
    ...answer.headers,
  });
  res.end(payload);
}

function parse(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
