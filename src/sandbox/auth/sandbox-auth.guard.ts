import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SandboxBudgetService } from '../budget/sandbox-budget.service';
import { badRequest, forbidden, unauthorized } from '../errors/sandbox-error';
import { ApiKeyRegistry } from './api-key-registry';
import { NO_PROJECT_KEY } from './no-project.decorator';
import type { SandboxRequest } from './sandbox-request';

/**
 * Auth and scope as the service does them: a missing or unknown Api-key (header `Api-key`, or query `key`) → 401; a project-scoped
 * route without `project` → 400; a key without access to the project → 403. A request that passes
 * is charged to the project's budget (429 when spent).
 */
@Injectable()
export class SandboxAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeyRegistry,
    private readonly budget: SandboxBudgetService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<SandboxRequest>();
    // The header, or `?key=` as three public clients (a PHP SDK's Engine/Api.php among them) send it.
    const apiKey = headerValue(request.headers['api-key']) ?? headerValue(queryString(request.query.key));
    if (!apiKey) throw unauthorized('Api-key header (or key query parameter) is missing');
    const projects = await this.keys.projectsOf(apiKey);
    if (!projects) throw unauthorized('Api-key is not valid');
    request.sandbox = { apiKey };
    const noProject = this.reflector.getAllAndOverride<boolean>(NO_PROJECT_KEY, [context.getHandler(), context.getClass()]);
    if (noProject) return true;
    const projectId = parseProject(request.query.project);
    if (!projects.includes(projectId)) throw forbidden(`project ${projectId}: the Api-key has no access to it`);
    request.sandbox.projectId = projectId;
    this.budget.chargeProject(projectId);
    return true;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text && text.trim() !== '' ? text.trim() : undefined;
}

function queryString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function parseProject(value: unknown): number {
  if (value === undefined || value === '') throw badRequest('project', 'project: query parameter is required');
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    throw badRequest('project', `project: must be a project number, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}
