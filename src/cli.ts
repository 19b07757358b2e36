/**
 * The command line: `npm run cli -- <command>` (sync, status, runs, check, preview).
 * Same config and store as the daemon; the services are the daemon's, booted without its HTTP surface.
 */
import 'reflect-metadata';
import { ignoreBrokenPipes } from './cli/output/broken-pipe';
import { processOutput } from './cli/output/cli-output';
import { reportFailure, runCli } from './cli/run-cli';

ignoreBrokenPipes();
runCli(process.argv).then(
  (code) => process.exit(code),
  (error: unknown) => process.exit(reportFailure(processOutput(), error)),
);
