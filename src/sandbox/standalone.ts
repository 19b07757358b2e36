import 'reflect-metadata';
import { Command, InvalidArgumentError } from 'commander';
import { createSandboxApp } from './sandbox-app';
import { SandboxInfo } from './sandbox-info';
import { setupSandboxOpenApi } from './sandbox-openapi';
import type { SandboxOptions } from './sandbox-options';

/**
 * Not the daemon's file: the embedded sandbox keeps <data_dir>/sandbox.sqlite (./data/sandbox.sqlite by
 * default), and two sandboxes writing one file would mix their projects, keys and budgets.
 */
const STANDALONE_DB = './data/sandbox-standalone.sqlite';

interface CliFlags {
  port: string; host: string; db: string; seed: string; apiKey?: string; projects: string; budget: string; faults: string;
  latency: string; clientTimeout?: string;
}

function fraction(value: string): string {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || number > 1) throw new InvalidArgumentError('must be a number from 0 to 1');
  return value;
}

function count(value: string): string {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('must be a whole number >= 1');
  return value;
}

function choice(allowed: string[]) {
  return (value: string): string => {
    if (!allowed.includes(value)) throw new InvalidArgumentError(`must be one of ${allowed.join(', ')}`);
    return value;
  };
}

/** `npm run sandbox -- --port 4010 --db ./sb.sqlite --seed demo`: the sandbox alone, on loopback. */
async function main(): Promise<void> {
  const flags = new Command('sandbox')
    .description('Offline, stateful twin of the service at http://127.0.0.1:<port>/api/v1')
    .option('--port <port>', 'port to listen on', '4010')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--db <file>', 'SQLite file, or :memory:', STANDALONE_DB)
    .option('--seed <seed>', 'demo or none', choice(['demo', 'none']), 'none')
    .option('--api-key <key>', 'Api-key of the demo project (generated when absent)')
    .option('--projects <n>', 'how many projects the key owns (1..N; the demo seed fills project 1)', count, '1')
    .option('--budget <onoff>', 'on or off: the per-project request budget', choice(['on', 'off']), 'on')
    .option('--faults <fraction>', 'fraction of requests answered with a fault', fraction, '0')
    .option('--latency <ms>', 'fixed delay added to every request', '0')
    .option('--client-timeout <ms>', "the client's timeout, for the delay fault")
    .parse()
    .opts<CliFlags>();
  const options: SandboxOptions = {
    db: flags.db, seed: flags.seed as 'demo' | 'none', apiKey: flags.apiKey, projects: Number(flags.projects), budget: flags.budget as 'on' | 'off',
    faults: Number(flags.faults), latencyMs: Number(flags.latency),
    clientTimeoutMs: flags.clientTimeout ? Number(flags.clientTimeout) : undefined,
  };
  // first, before the database is opened: which file this sandbox keeps its projects in
  process.stdout.write(`sandbox: database ${options.db} (use --db FILE or --db :memory:)\n`);
  if (options.db !== ':memory:') (await import('node:fs')).mkdirSync((await import('node:path')).dirname(options.db), { recursive: true });
  const app = await createSandboxApp(options, { prefix: 'api/v1' });
  app.enableShutdownHooks();
  setupSandboxOpenApi(app, 'docs');
  await app.listen(Number(flags.port), flags.host);
  const baseUrl = `http://${flags.host}:${flags.port}/api/v1`;
  const info = app.get(SandboxInfo);
  info.setBaseUrl(baseUrl);
  const { projectId, apiKey } = info.getSandboxInfo();
  // The key is printed on purpose: this is the local sandbox's own key, the user needs it for curl.
  process.stdout.write(`Sandbox listening at ${baseUrl} (OpenAPI http://${flags.host}:${flags.port}/docs)\nproject: ${projectId}\napi-key: ${apiKey}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
