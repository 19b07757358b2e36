import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { WWW_AUTHENTICATE } from './admin-auth.guard';
import { AdminTokenService } from './admin-token.service';

/**
 * The same check for every path under /api, routes or not: without a valid token (full or scoped), /api/anything
 * answers 401, so the API's shape is not probed anonymously. (The guard covers the controllers and their scopes.)
 */
@Injectable()
export class AdminAuthMiddleware implements NestMiddleware {
  constructor(private readonly tokens: AdminTokenService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const problem = this.tokens.problemWith(req.headers.authorization);
    if (!problem) return next();
    res.setHeader('WWW-Authenticate', WWW_AUTHENTICATE);
    res.status(401).json({ statusCode: 401, error: 'Unauthorized', message: problem });
  }
}
