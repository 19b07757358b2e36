import type { INestApplication } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { NestFactory, RouterModule } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SandboxExceptionFilter } from './errors/sandbox-exception.filter';
import { SandboxModule } from './sandbox.module';
import type { SandboxOptions } from './sandbox-options';

/** Large add-orders batches (thousands of orders) exceed body-parser's 100 kB default. */
export const SANDBOX_BODY_LIMIT = '64mb';

export interface SandboxAppOptions {
  /** Path prefix of every route: 'api/v1' standalone, 'sandbox/api/v1' inside the daemon. */
  prefix?: string;
  /** Logs Nest's boot messages; off by default (tests, CLI). */
  logger?: boolean;
}

/**
 * Imports the sandbox into another Nest application under `path` (default 'sandbox/api/v1').
 * The host app should raise its JSON body limit (see SANDBOX_BODY_LIMIT) for big batches.
 */
export function sandboxImports(options: SandboxOptions, path = 'sandbox/api/v1') {
  return [SandboxModule.forRoot(options), RouterModule.register([{ path, module: SandboxModule }])];
}

/** A standalone application serving only the sandbox. Call `listen` on it. */
export async function createSandboxApp(options: SandboxOptions, appOptions: SandboxAppOptions = {}):
Promise<INestApplication> {
  @Module({ imports: sandboxImports(options, appOptions.prefix ?? 'api/v1') })
  class SandboxRootModule {}

  const app = await NestFactory.create<NestExpressApplication>(SandboxRootModule, {
    logger: appOptions.logger ? ['log', 'warn', 'error'] : false,
    bodyParser: false,
  });
  app.useBodyParser('json', { limit: SANDBOX_BODY_LIMIT });
  // Malformed JSON fails in body-parser, before any controller filter: answer it the service's way.
  app.useGlobalFilters(new SandboxExceptionFilter());
  return app;
}
