import { Command, InvalidArgumentError, Option } from 'commander';
import { STREAM_ORDER, StreamName } from '../connectors/canonical';
import { isCalendarDate } from '../application/answers/calendar-date.validator';
import type { CliContext } from './cli-context';
import type { CliOutput } from './output/cli-output';
import { checkAllCommand, checkCommand } from './commands/check.command';
import { discoverCommand } from './commands/discover.command';
import { initCommand } from './init/init.command';
import type { InitFlags } from './init/init-answers';
import { pauseCommand, resetCommand, resumeCommand } from './commands/connection-control.command';
import { newConnectorCommand } from './commands/new-connector.command';
import { previewCommand } from './commands/preview.command';
import { rejectedCommand, RejectedOptions } from './commands/rejected.command';
import { retryCommand } from './commands/retry.command';
import { runsCommand } from './commands/runs.command';
import { statusCommand } from './commands/status.command';
import { syncCommand } from './commands/sync.command';
import { webhooksCommand } from './commands/webhooks.command';
import { CONFIRM_ABOVE_MINUTES } from './commands/cost-consent';
import { flowCommand } from './commands/flow.command';
import { OUTBOUND_FLOW_NAMES } from '../application/flow-descriptions';

/** Boots the services for one command and always shuts them down; returns the command's exit code. */
export type CommandRunner = (command: (ctx: CliContext) => Promise<number>) => Promise<number>;

/**
 * The commands. Each action only parses its arguments and calls one command function; `run` owns
 * booting (so `--help` and argument errors never touch the store) and records the exit code.
 */
export function buildProgram(run: CommandRunner, out: CliOutput, setExitCode: (code: number) => void, init?: (flags: InitFlags) => Promise<number>): Command {
  const program = new Command('tracker-sync')
    .description('Sync CRM deals, clients and managers into the service (same config and store as the daemon)')
    .option('--config <file>', 'config file (default: TRACKER_SYNC_CONFIG, else config/tracker-sync.yaml)')
    .option('--json', "print the admin API's JSON answer for the same request instead of text (for scripts)")
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError()
    .configureOutput({
      writeOut: (text) => out.line(text.replace(/\n$/, '')),
      writeErr: (text) => out.error(text.replace(/\n$/, '')),
    })
    .exitOverride();
  const act = (command: (ctx: CliContext) => Promise<number>) => run(command).then(setExitCode);

  program
    .command('sync')
    .description('run one sync in the foreground and print its summary')
    .argument('<connection>', 'connection id')
    .addOption(new Option('--full', 'full resync: ignore cursors and fingerprints').conflicts('since'))
    .addOption(new Option('--since <date>', 'read records updated since this day (YYYY-MM-DD, from 00:00 UTC+03:00, the service\'s day)').argParser(parseSince))
    .action((connection: string, options: { full?: boolean; since?: string }) =>
      act((ctx) => syncCommand(ctx, out, connection, options)),
    );

  const yesOption = `spend what the plan says without asking (a pass above ${CONFIRM_ABOVE_MINUTES} min at the service's limits asks on a terminal, and stops without --yes elsewhere)`;
  program
    .command('flow')
    .description(`run an outbound flow (${OUTBOUND_FLOW_NAMES.join(', ')}) in the foreground: it reads the service and writes into the CRM; --dry-run shows what it would write instead`)
    .argument('<flow>', `the flow (${OUTBOUND_FLOW_NAMES.join(', ')})`)
    .argument('<connection>', 'connection id')
    .option('--dry-run', 'show what would be written where; write nothing')
    .option('--yes', yesOption)
    .action((flow: string, connection: string, options: { dryRun?: boolean; yes?: boolean }) => act((ctx) => flowCommand(ctx, out, flow, connection, options)));

  // the first two flows' own commands: `flow write_back` and `flow leads`
  program
    .command('write-back')
    .description("write the deals' attribution (channel, UTM tags, city...) back into the CRM; --dry-run shows it instead (= flow write_back)")
    .argument('<connection>', 'connection id')
    .option('--dry-run', 'show each deal and the values that would be written; write nothing')
    .option('--yes', yesOption)
    .action((connection: string, options: { dryRun?: boolean; yes?: boolean }) => act((ctx) => flowCommand(ctx, out, 'write_back', connection, options)));

  program
    .command('deliver-leads')
    .description("deliver the service's new proxy leads into the CRM as deals; --dry-run shows them instead (= flow leads)")
    .argument('<connection>', 'connection id')
    .option('--dry-run', 'show each proxy lead and the deal or note it would make; create nothing')
    .action((connection: string, options: { dryRun?: boolean }) => act((ctx) => flowCommand(ctx, out, 'leads', connection, options)));

  program
    .command('status')
    .description('connections with their state, last run and next run')
    .action(() => act((ctx) => statusCommand(ctx, out)));

  program
    .command('runs')
    .description("a connection's latest runs, newest first")
    .argument('<connection>', 'connection id')
    .option('--limit <n>', 'how many runs', parsePositiveInt, 20)
    .action((connection: string, options: { limit: number }) => act((ctx) => runsCommand(ctx, out, connection, options.limit)));

  program
    .command('rejected')
    .description("open rejections: the connection's records rejected and not fixed yet, whatever run saw them last")
    .argument('<connection>', 'connection id')
    .option('--stream <stream>', `one stream (${STREAM_ORDER.join(', ')})`, parseStream)
    .option('--limit <n>', 'how many', parsePositiveInt, 100)
    .option('--offset <n>', 'skip this many', parseCount, 0)
    .action((connection: string, options: RejectedOptions, command: Command) =>
      act((ctx) => rejectedCommand(ctx, out, connection, { ...options, json: Boolean(command.optsWithGlobals().json) })),
    );

  program
    .command('check')
    .description("run the connector's check: reach the source and verify credentials; without a connection, each project (its Api-key sees it) and the connections of each")
    .argument('[connection]', 'connection id (default: every project and connection)')
    .action((connection: string | undefined) => act((ctx) => (connection === undefined ? checkAllCommand(ctx, out) : checkCommand(ctx, out, connection))));

  program
    .command('discover')
    .description("list the CRM's pipelines and stages (won, lost, open), deal and contact fields and users, and propose status_map and visit_field; without a connection, the projects the Api-keys see (configured, and under which name)")
    .argument('[connection]', 'connection id (default: list the projects instead)')
    .action((connection: string | undefined) => act((ctx) => discoverCommand(ctx, out, connection)));

  program
    .command('preview')
    .description('dry run: canonical records and the exact payloads with the checks\' verdicts; nothing is sent')
    .argument('<connection>', 'connection id')
    .option('--stream <stream>', `one stream (${STREAM_ORDER.join(', ')})`, parseStream)
    .option('--limit <n>', 'records per stream', parsePositiveInt, 5)
    .action((connection: string, options: { stream?: StreamName; limit: number }) =>
      act((ctx) => previewCommand(ctx, out, connection, options)),
    );

  program
    .command('pause')
    .description('stop scheduled runs of a connection (a sync by hand still runs)')
    .argument('<connection>', 'connection id')
    .action((connection: string) => act((ctx) => pauseCommand(ctx, out, connection)));

  program
    .command('resume')
    .description('schedule the runs of a paused connection again')
    .argument('<connection>', 'connection id')
    .action((connection: string) => act((ctx) => resumeCommand(ctx, out, connection)));

  program
    .command('reset')
    .description("forget a connection's cursors: its next run reads every stream from the beginning")
    .argument('<connection>', 'connection id')
    .action((connection: string) => act((ctx) => resetCommand(ctx, out, connection)));

  program
    .command('retry')
    .description("send a run's rejected records again (after fixing them in the source), in a new run")
    .argument('<run-id>', 'the run whose rejected records to retry', parsePositiveInt)
    .action((runId: number) => act((ctx) => retryCommand(ctx, out, runId)));

  const webhooks = program
    .command('webhooks')
    .description("the connection's CRM webhook (POST /hooks/<connection>): register, list, unregister");
  webhooks
    .command('register')
    .description('register https://your-host/hooks/<connection> with the CRM (once: an earlier registration is replaced), or print the steps')
    .argument('<connection>', 'connection id')
    .option('--url <base>', 'where the CRM reaches this daemon, e.g. https://your-host (default: server.public_url)', parseBaseUrl)
    .action((connection: string, options: { url?: string }) => act((ctx) => webhooksCommand(ctx, out, 'register', connection, options)));
  webhooks
    .command('list')
    .description("the connection's webhook registrations in the CRM")
    .argument('<connection>', 'connection id')
    .action((connection: string) => act((ctx) => webhooksCommand(ctx, out, 'list', connection, {})));
  webhooks
    .command('unregister')
    .description("remove the connection's webhook registrations from the CRM")
    .argument('<connection>', 'connection id')
    .action((connection: string) => act((ctx) => webhooksCommand(ctx, out, 'unregister', connection, {})));

  program
    .command('init')
    .description("add a CRM connection: asks (on a terminal) or takes flags, offers the key's projects, reads the CRM, proposes the mapping, writes the config, checks it, offers a first sync; or a project block alone (--project-name, --project)")
    .option('--preset <name>', 'the CRM preset (amocrm, bitrix24, pipedrive, hubspot)')
    .option('--base-url <url>', "the CRM's address")
    .option('--token-env <VARIABLE>', 'the variable the CRM token is kept under (its value: from the environment, or --token); written to <data_dir>/.env')
    .option('--token <token>', 'the CRM token itself (default: the value of --token-env in the environment)')
    .option('--tracker-url <url>', "the service's API URL (default: the embedded sandbox)")
    .option('--tracker-key-env <VARIABLE>', "the variable holding the service's API key (with --tracker-url)")
    .option('--project <number>', 'the project number (with --tracker-url, or --project-name)')
    .option('--project-name <name>', 'put the project under projects: by this name (the connection, if any, gets project: <name>; --tracker-url and --tracker-key-env become its base_url and api_key); alone with --project: only the project block')
    .option('--connection <id>', 'the new connection id')
    .option('--schedule <cron>', 'how often it syncs (default */15 * * * *)')
    .option('--accept-proposed', 'write the proposed mapping as discover shows it (required without a terminal)')
    .option('--sync', 'run a first sync after the check (without a terminal)')
    .action((flags: InitFlags) => (init ? init(flags) : Promise.resolve(1)).then(setExitCode));

  program
    .command('new-connector')
    .description('create a connector plugin from the template (connectors/example-custom); needs no config')
    .argument('<name>', 'the connector name, e.g. my-crm')
    .option('--dir <folder>', 'create <folder>/<name> (a folder to list in connector_paths) instead of connectors/<name>')
    .action((name: string, options: { dir?: string }) => setExitCode(newConnectorCommand(out, name, options)));

  return program;
}

function parseSince(value: string): string {
  if (isCalendarDate(value) || (/^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)))) return value;
  throw new InvalidArgumentError(`"${value}" is not a date YYYY-MM-DD`);
}

function parseBaseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' || url.protocol === 'http:') return value;
  } catch {
    // not a URL: said below
  }
  throw new InvalidArgumentError(`"${value}" is not a URL such as https://your-host`);
}

function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`"${value}" is not a positive whole number`);
  return n;
}

function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`"${value}" is not a whole number`);
  return n;
}

function parseStream(value: string): StreamName {
  if ((STREAM_ORDER as readonly string[]).includes(value)) return value as StreamName;
  throw new InvalidArgumentError(`"${value}" is not a stream (${STREAM_ORDER.join(', ')})`);
}
