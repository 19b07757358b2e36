import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { WWW_AUTHENTICATE } from './admin-auth.guard';
import { AdminTokenService } from './admin-token.service';

/**
 * For an Express route mounted outside Nest's controllers that concerns the whole installation (e.g. a queue board
 * under /admin/queues): `app.use('/admin/queues', fullTokenOnly(app.get(AdminTokenService)), router)`. 401 without a
 * valid token, 403 for a scoped token of `admin.tokens`, as the admin API's `installation` routes answer.
 */
export function fullTokenOnly(tokens: AdminTokenService): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const resolved = tokens.resolve(req.headers.authorization);
    if ('problem' in resolved) {
      res.setHeader('WWW-Authenticate', WWW_AUTHENTICATE);
      res.status(401).json({ statusCode: 401, error: 'Unauthorized', message: resolved.problem });
      return;
    }
    if (resolved.principal.kind !== 'full') {
      res.status(403).json({ statusCode: 403, error: 'Forbidden', message: 'this concerns the whole installation: it needs the full admin token' });
      return;
    }
    next();
  };
}
