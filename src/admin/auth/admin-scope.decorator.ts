import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiForbiddenResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { ProjectScope } from '../../application/project-scope';
import { scopeOfRequest } from './admin-principal';

/**
 * What an admin route concerns, for the scoped tokens of `admin.tokens` (the full token passes everywhere):
 * - `installation`: the whole installation (cluster, config, alert tests, the shared budget): 403;
 * - `list`: a list; the handler takes `@VisibleProjects()` and shows only the connections of those projects;
 * - `connection`: the connection `:id`; one of another project answers 404, as an unknown id does;
 * - `run`: the run `:id` (and its rejected records); a run of another project's connection answers 404 the same way.
 * `operate` marks a write an operator may do and a viewer may not (403).
 * Every route under /api declares one (test/admin/admin-scopes.spec.ts); the guard treats a route without one as
 * `installation`. A route outside Nest's controllers (an Express router mounted under the admin token, e.g. a queue
 * board) uses `fullTokenOnly` (full-token.middleware.ts): 401 without a valid token, 403 for a scoped one.
 */
export type AdminScopeKind = 'installation' | 'list' | 'connection' | 'run';
export type AdminAccess = 'read' | 'operate';

export interface AdminScopeDeclaration {
  scope: AdminScopeKind;
  access: AdminAccess;
}

export const ADMIN_SCOPE = 'tracker-sync:admin-scope';

export function AdminScope(scope: AdminScopeKind, access: AdminAccess = 'read'): MethodDecorator {
  const declaration: AdminScopeDeclaration = { scope, access };
  const forbidden = scope === 'installation'
    ? [ApiForbiddenResponse({ description: 'a scoped token (admin.tokens): this concerns the whole installation' })]
    : access === 'operate' ? [ApiForbiddenResponse({ description: 'a scoped token of role viewer' })] : [];
  return applyDecorators(SetMetadata(ADMIN_SCOPE, declaration), ...forbidden);
}

/** The projects the caller's token sees (every one for the full token): what a `list` route filters by. */
export const VisibleProjects = createParamDecorator(
  (_data: unknown, context: ExecutionContext): ProjectScope => scopeOfRequest(context.switchToHttp().getRequest<Request>()),
);
