import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
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
        "The offline twin of the service's API. Every route needs the `Api-key` header; project routes also " +
          'the `project` query parameter (the demo project is 1).',
      )
      .addApiKey({ type: 'apiKey', in: 'header', name: 'Api-key' }, 'Api-key')
      .addSecurityRequirements('Api-key')
      .build(),
    { include: [SandboxModule] },
  );
  SwaggerModule.setup(docsPath, app, document);
}
