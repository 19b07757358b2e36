import type { INestApplication } from '@nestjs/common';
import { raw, type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/** A body over this is answered 413 (CRMs send a few kilobytes; a sandbox-sized limit would invite abuse). */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** What the body parser leaves on a request under /hooks: the exact bytes (signatures are over them). */
export interface WebhookRequest extends Request {
  body: Buffer | undefined;
  webhookBodyTooLarge?: boolean;
}

/**
 * The raw bytes of every call under /hooks, whatever its content type, up to WEBHOOK_BODY_LIMIT. Mounted
 * before the daemon's JSON parser, which then leaves these requests alone (their body is read already).
 */
export function webhookBodyParser(): RequestHandler {
  const parse = raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT });
  return (req: Request, res: Response, next: NextFunction) =>
    parse(req, res, (error?: unknown) => {
      if (!error) return next();
      if ((error as { type?: string }).type === 'entity.too.large') {
        (req as WebhookRequest).webhookBodyTooLarge = true;
        (req as WebhookRequest).body = undefined;
        return next();
      }
      // a body that cannot be read (cut, unknown encoding): nothing to verify, nothing said
      res.status(400).end();
    });
}

/** Call before any other body parser is mounted (the daemon's JSON parser, Nest's defaults). */
export function mountWebhookBody(app: INestApplication): void {
  app.use('/hooks', webhookBodyParser());
}
