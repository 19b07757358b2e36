import { CommanderError } from 'commander';
import { ConfigError, TrackerSyncConfig } from '../config';
import { InvalidRunOptionsError, UnknownConnectionError, UnknownRunError } from '../engine';
import { DiscoveryError } from '../discovery/discovery.service';
import { CliApp, createCliApp } from './cli-app';
import type { CliContext } from './cli-context';
import { CliOutput, processOutput } from './output/cli-output';
import { initCommand } from './init/init.command';
import { buildProgram } from './program';

/**
 * Parses the command line, boots the services for the chosen command, runs it, shuts down.
 * Returns the exit code: 0 success, 1 a failed run / check / bad config / unknown connection.
 */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env, out: CliOutput = processOutput()): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(
    (command) => withApp(argv, env, out, command, program.opts().json === true),
    out,
    (code) => (exitCode = code),
    // init boots its own apps (the config it starts from may hold no connection yet); questions only on a terminal
    (flags) => initCommand(argv, env, out, flags, Boolean(process.stdin.isTTY) && out.isTTY),
  );
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    return reportFailure(out, error, env);
  }
  return exitCode;
}

async function withApp(argv: string[], env: NodeJS.ProcessEnv, out: CliOutput, command: (ctx: CliContext) => Promise<number>, json: boolean): Promise<number> {
  let app: CliApp | null = null;
  const interrupt = () => {
    // still booting: no run to checkpoint yet, so nothing to wait for
    if (!app) process.exit(130);
    out.error('interrupted: finishing the batch in flight, then stopping');
    void app.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    app = await createCliApp(argv, env);
    return await command({ ...app.context, json });
  } catch (error) {
    return reportFailure(out, error, env, app?.context.config);
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await app?.close();
  }
}

/**
 * Every failure is one line on stderr and exit 1, never a stack trace: the user's mistakes (config, unknown
 * connection or run, options that make no sense) as they are, anything else after the program's name.
 * LOG_LEVEL=debug adds the stack, for a bug report. An unknown connection is followed by the configured ones (a typo's
 * fix at hand; the CLI sees the whole config, where the admin API must not list other projects' connections).
 */
export function reportFailure(out: CliOutput, error: unknown, env: NodeJS.ProcessEnv = process.env, config?: Pick<TrackerSyncConfig, 'connections'>): number {
  if (error instanceof UnknownConnectionError && config) {
    const ids = config.connections.map((c) => c.id);
    out.error(`${error.message} (the config's connections: ${ids.length ? ids.join(', ') : 'none'})`);
  } else if (error instanceof ConfigError || error instanceof UnknownConnectionError || error instanceof UnknownRunError || error instanceof InvalidRunOptionsError || error instanceof DiscoveryError) {
    out.error(error.message);
  } else {
    out.error(`tracker-sync: ${error instanceof Error ? error.message : String(error)}`);
    if (env.LOG_LEVEL === 'debug' && error instanceof Error && error.stack) out.error(error.stack);
  }
  return 1;
}
