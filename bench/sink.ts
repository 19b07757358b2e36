/**
 * The benchmark's stand-in for the service: a minimal loopback server that parses every JSON body and
 * answers with the service's counters. It runs as its own process so that its cost is not the engine's.
 * Usage: node dist/bench/sink.js [--port 0] [--latency 50]   (prints `listening <port>`)
 */
import { createServer } from 'node:http';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const latencyMs = option('--latency', 0);
let orders = 0;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let items = 0;
    try {
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : null;
      items = Array.isArray(body) ? body.length : 0;
    } catch {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end('{"status":"error","error":"invalid_json","description":"body is not JSON"}');
      return;
    }
    if (req.url?.includes('add-orders')) orders += items;
    const answer = req.url?.includes('/stats')
      ? { status: 'success', orders }
      : req.url?.includes('manager/list')
        ? { status: 'success', data: [], total: 0 }
        : {
            status: 'success', uploaded: items, processed: items, saved: items, skipped_by_status: 0,
            skipped_by_waiting_visit_info: 0, skipped_by_internal_error: 0, skipped_because_not_changed: 0,
            skipped_by_invalid_format: 0, skipped_fields_by_invalid_format: 0, comment: '',
          };
    const send = () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer));
    };
    if (latencyMs > 0) setTimeout(send, latencyMs);
    else send();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(option('--port', 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
