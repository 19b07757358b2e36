import { CanActivate, ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { TrackerSyncConfig } from '../../config';
import { UnknownConnectionError, UnknownRunError } from '../../engine';
import { ProjectScope } from '../../application/project-scope';
import { RunsQueryService } from '../../application/runs/runs-query.service';
import { AdminPrincipal, rememberPrincipal } from './admin-principal';
import { ADMIN_SCOPE, AdminScopeDeclaration } from './admin-scope.decorator';
import { AdminTokenService } from './admin-token.service';

export const WWW_AUTHENTICATE = 'Bearer realm="tracker-sync admin"';

/** An undeclared route concerns the installation: a new route is closed to scoped tokens until it says otherwise. */
const UNDECLARED: AdminScopeDeclaration = { scope: 'installation', access: 'operate' };

/**
 * Requires `Authorization: Bearer <admin token>` on every admin controller, and holds a scoped token to what the
 * route declares (`@AdminScope`): another project's connection or run is unknown (404, the same answer as an id that
 * does not exist), the installation's routes and a viewer's writes are forbidden (403).
 */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(
    private readonly tokens: AdminTokenService,
    private readonly reflector: Reflector,
    private readonly config: TrackerSyncConfig,
    private readonly runs: RunsQueryService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const resolved = this.tokens.resolve(request.headers.authorization);
    if ('problem' in resolved) {
      http.getResponse<Response>().setHeader('WWW-Authenticate', WWW_AUTHENTICATE);
      throw new UnauthorizedException(resolved.problem);
    }
    const principal = resolved.principal;
    rememberPrincipal(request, principal);
    if (principal.kind === 'full') return true;
    const declared = this.reflector.get<AdminScopeDeclaration | undefined>(ADMIN_SCOPE, context.getHandler()) ?? UNDECLARED;
    await this.checkScope(declared, principal, request);
    return true;
  }

  private async checkScope(declared: AdminScopeDeclaration, principal: Extract<AdminPrincipal, { kind: 'scoped' }>, request: Request): Promise<void> {
    if (declared.scope === 'installation') throw new ForbiddenException('this concerns the whole installation: it needs the full admin token');
    const scope = ProjectScope.of(principal.projects);
    const id = String(request.params?.id ?? '');
    if (declared.scope === 'connection' && !scope.seesConnection(this.config, id)) throw new UnknownConnectionError(id);
    if (declared.scope === 'run' && /^\d+$/.test(id)) {
      // a run of another project's connection does not exist for this token (nor does one of a connection since removed,
      // nor one its connection made in another project before it moved to this token's)
      const run = await this.runs.row(Number(id));
      if (!scope.seesRow(this.config, run)) throw new UnknownRunError(Number(id));
    }
    if (declared.access === 'operate' && principal.role !== 'operator') {
      throw new ForbiddenException(`the token "${principal.name}" is a viewer's: it reads only`);
    }
  }
}
