/**
 * The daemon: admin API, status page, scheduler, and the embedded sandbox when no service is configured.
 * `npm start` runs this on the defaults of config/tracker-sync.yaml.
 */
import 'reflect-metadata';
import { ConfigReloadRefusedError } from './application/config/config-reload.service';
import { ConfigError } from './config';
import { createDaemonApp } from './daemon';

async function main(): Promise<void> {
  const daemon = await createDaemonApp({ argv: process.argv, env: process.env });
  await daemon.start();
  const shutdown = (signal: string) => {
    daemon.boot.logger.info(`${signal} received: finishing the batch in flight, then stopping`);
    // a second signal, or a run that does not stop in time, ends the process anyway
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    daemon.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  // SIGHUP (Node's default ends the process): read the config again; the outcome is logged either way
  process.on('SIGHUP', () => {
    daemon.boot.logger.info('SIGHUP received: reading the config again');
    // a file that does not load is logged with its problems by the reload itself
    daemon.reload().catch((error: unknown) => {
      if (!(error instanceof ConfigReloadRefusedError)) daemon.boot.logger.error(`the config was not reloaded: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
}

main().catch((error: unknown) => {
  console.error(startFailure(error));
  process.exit(1);
});

/** The config's problems, or a port we cannot listen on, as the operator's next step; anything else with its stack. */
function startFailure(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  const listen = error as NodeJS.ErrnoException & { address?: string; port?: number };
  if (listen?.syscall === 'listen' && listen.code === 'EADDRINUSE') {
    return `port ${listen.port} on ${listen.address} is in use: set PORT (or server.port) to another port`;
  }
  if (listen?.syscall === 'listen' && listen.code === 'EACCES') {
    return `port ${listen.port} on ${listen.address} needs privileges this user lacks: set PORT (or server.port) to a port above 1023`;
  }
  return `tracker-sync failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}
