import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { addRequestBodies } from './openapi/request-bodies';
import { SandboxModule } from './sandbox.module';

/**
 * The sandbox's own OpenAPI document (its routes only), with its UI at `docsPath`: /docs standalone,
 * /sandbox/docs inside the daemon, whose /docs is the admin API's alone.
 */
export function setupSandboxOpenApi(app: INestApplication, docsPath: string): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('tracker-sync sandbox')
      .setDescription(
        "The offline twin of the service's API. Every route needs the `Api-key` header (or the `key` query parameter); " +
          'project routes also the `project` query parameter (the demo project is 1). Errors: `{status: "error", error, ' +
          'description, details}` with HTTP 200, or the real status with `Use-Http-Code: 1`. Lists take `limit` up to ' +
          'their cap (orders, visits, clients 10,000; the other lists 1,000); above it a 400.',
      )
      .addApiKey({ type: 'apiKey', in: 'header', name: 'Api-key' }, 'Api-key')
      .addSecurityRequirements('Api-key')
      .build(),
    { include: [SandboxModule] },
  );
  addRequestBodies(document.paths as never);
  SwaggerModule.setup(docsPath, app, document);
}
