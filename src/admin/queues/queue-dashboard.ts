import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import type { AdminTokenService } from '../auth/admin-token.service';
import type { RunsQueueView } from '../../cluster/runs-queue-view';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * Cluster mode: BullMQ's dashboard (@bull-board, Express) at /admin/queues, behind the full admin token (a scoped token of admin.tokens: 403). Read-only:
 * a run is started, retried or removed through the admin API, whose rules (one run per connection, the follow-up)
 * a button here would go around.
 */
export function mountQueueDashboard(app: NestExpressApplication, view: RunsQueueView, tokens: AdminTokenService): void {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({ queues: [new BullMQAdapter(view.queue, { readOnlyMode: true })], serverAdapter });
  app.use(QUEUE_DASHBOARD_PATH, adminOnly(tokens), serverAdapter.getRouter());
}

/**
 * The admin token, as `Authorization: Bearer <token>` (scripts) or as the password of HTTP Basic (a browser asks
 * for it once and sends it with the page's every asset). 401 without it or with another.
 */
function adminOnly(tokens: AdminTokenService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const token = tokenOf(req.headers.authorization);
    const resolved = token ? tokens.resolve(`Bearer ${token}`) : null;
    if (!resolved || 'problem' in resolved) {
      res.setHeader('WWW-Authenticate', 'Basic realm="tracker-sync queues", charset="UTF-8"');
      res.status(401).json({ statusCode: 401, error: 'Unauthorized', message: token ? 'the admin token is not valid' : 'an admin token is required: Authorization: Bearer <token>' });
      return;
    }
    // every run of the cluster, of every project: a token of admin.tokens (some projects) may not see it
    if (resolved.principal.kind !== 'full') {
      res.status(403).json({ statusCode: 403, error: 'Forbidden', message: 'this concerns the whole installation: it needs the full admin token' });
      return;
    }
    next();
  };
}

function tokenOf(header: string | undefined): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (bearer) return bearer;
  const basic = /^Basic\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (!basic) return null;
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const password = decoded.slice(decoded.indexOf(':') + 1);
  return password || null;
}
