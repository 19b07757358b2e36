import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AdminTokenService } from './admin-token.service';

export const WWW_AUTHENTICATE = 'Bearer realm="tracker-sync admin"';

/** Requires `Authorization: Bearer <admin token>` on every admin controller. */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(private readonly tokens: AdminTokenService) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const problem = this.tokens.problemWith(http.getRequest<Request>().headers.authorization);
    if (!problem) return true;
    http.getResponse<Response>().setHeader('WWW-Authenticate', WWW_AUTHENTICATE);
    throw new UnauthorizedException(problem);
  }
}
