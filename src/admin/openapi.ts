import { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { SandboxModule } from '../sandbox/sandbox.module';

export const DOCS_PATH = 'docs';

/**
 * OpenAPI document of the admin API, with its UI at /docs (open; the API itself needs the token).
 * Every module but the embedded sandbox's, which has its own document (src/sandbox/sandbox-openapi.ts).
 */
export function setupOpenApi(app: INestApplication, version = '0.1.0'): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('tracker-sync admin API')
      .setDescription(
        'Connections, runs and rejected records of the sync daemon. Every /api route needs ' +
          '`Authorization: Bearer <admin token>` (ADMIN_TOKEN, config admin.token, or <data_dir>/admin-token).',
      )
      .setVersion(version)
      .addBearerAuth()
      .build(),
    { include: adminModules(app) },
  );
  SwaggerModule.setup(DOCS_PATH, app, document);
}

function adminModules(app: INestApplication): Function[] {
  return [...app.get(ModulesContainer).values()].map((module) => module.metatype).filter((type) => type !== SandboxModule);
}
