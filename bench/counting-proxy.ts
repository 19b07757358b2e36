/**
 * A loopback HTTP proxy in front of the sandbox that notes when each request arrived and how it was answered:
 * the request rate and the 429s the service sees, measured outside the daemons (the cluster tests, bench:cluster).
 */
import http from 'node:http';
import { AddressInfo } from 'node:net';

export interface SeenRequest {
  at: number;
  method: string;
  path: string;
  /** the `project` query parameter (the service's requests are per project), '' without one */
  project: string;
  status: number;
}

export interface CountingProxy {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** Forwards everything to `target` (e.g. http://127.0.0.1:4010), keeping the path; `url` has the same path shape. */
export async function countingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target);
  const seen: SeenRequest[] = [];
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const at = Date.now();
    const upstream = http.request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        seen.push({ at, method: req.method ?? '', path: (req.url ?? '').split('?')[0], project: projectOf(req.url), status: answer.statusCode ?? 0 });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      seen.push({ at, method: req.method ?? '', path: req.url ?? '', project: projectOf(req.url), status: 502 });
      res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => {
      agent.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function projectOf(url: string | undefined): string {
  return new URL(url ?? '/', 'http://x').searchParams.get('project') ?? '';
}
