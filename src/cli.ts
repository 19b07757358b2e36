/**
 * The command line: `npm run cli -- <command>` (sync, status, runs, check, preview).
 * Same config and store as the daemon; the services are the daemon's, booted without its HTTP surface.
 */
import 'reflect-metadata';
import { runCli } from './cli/run-cli';

runCli(process.argv).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
