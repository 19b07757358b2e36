import { ArgumentsHost, Catch } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Request } from 'express';
import { SandboxExceptionFilter } from './sandbox-exception.filter';

/**
 * For a host application that mounts the sandbox under a path: errors raised before any sandbox
 * controller (malformed JSON in body-parser, unknown sandbox routes) get the service's error body
 * when the path is the sandbox's; every other path keeps Nest's default answer.
 * Use: `app.useGlobalFilters(new MountedSandboxExceptionFilter('/sandbox/api/v1', app.getHttpAdapter()))`.
 */
@Catch()
export class MountedSandboxExceptionFilter extends BaseExceptionFilter {
  private readonly sandboxFilter = new SandboxExceptionFilter();

  constructor(private readonly pathPrefix: string, ...rest: ConstructorParameters<typeof BaseExceptionFilter>) {
    super(...rest);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const path = request.originalUrl ?? request.url ?? '';
    if (path.startsWith(this.pathPrefix)) return this.sandboxFilter.catch(exception, host);
    return super.catch(exception, host);
  }
}
