import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse, ApiOperation, ApiPayloadTooLargeResponse, ApiSecurity, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { TrackerSyncConfig } from '../config/config.schema';
import type { WebhookRequest } from './webhook-body';
import { WebhookReceiver } from './webhook-receiver.service';

/** Characters HubSpot's v3 signature takes decoded in the URI (its "validating requests" guide). */
const DECODED_IN_URI: Record<string, string> = {
  '%3A': ':', '%2F': '/', '%3F': '?', '%40': '@', '%21': '!', '%24': '$', '%27': "'", '%28': '(', '%29': ')', '%2A': '*', '%2C': ',', '%3B': ';',
};

/**
 * The CRMs' door: outside the admin token (a CRM cannot send it), each call verified as its CRM signs it.
 * Every answer has an empty body; a refusal never says why.
 */
@ApiTags('webhooks')
@ApiSecurity({})
@Controller('hooks')
export class WebhooksController {
  constructor(
    private readonly receiver: WebhookReceiver,
    private readonly config: TrackerSyncConfig,
  ) {}

  @Post(':connection')
  @HttpCode(202)
  @ApiOperation({
    summary: 'a CRM says a deal changed: the connection\'s next incremental run starts within its webhook.debounce',
    description:
      'No admin token: the call is verified as its CRM signs it (HubSpot X-HubSpot-Signature-v3, Pipedrive HTTP Basic auth, ' +
      'Bitrix24 auth[application_token], or the connection\'s webhook.verify). The body (at most 1 MB) is not read for data.',
  })
  @ApiAcceptedResponse({ description: 'taken: a run follows (or the call is recorded, when the connection is paused); empty body' })
  @ApiUnauthorizedResponse({ description: 'refused (unknown connection, no webhook settings, or a call that is not verified); empty body, the reason is in the log' })
  @ApiPayloadTooLargeResponse({ description: 'the body is over 1 MB' })
  @ApiTooManyRequestsResponse({ description: 'more than 10 calls in a second for this connection' })
  call(@Param('connection') connection: string, @Req() req: WebhookRequest, @Res() res: Response): void {
    this.answer(connection, undefined, req, res);
  }

  @Post(':connection/:secret')
  @HttpCode(202)
  @ApiOperation({
    summary: 'the same, for CRMs that carry a secret only in the URL (amoCRM, webhook.verify.type path_secret)',
  })
  @ApiAcceptedResponse({ description: 'taken; empty body' })
  @ApiUnauthorizedResponse({ description: 'refused; empty body' })
  @ApiPayloadTooLargeResponse({ description: 'the body is over 1 MB' })
  @ApiTooManyRequestsResponse({ description: 'more than 10 calls in a second for this connection' })
  callWithSecret(@Param('connection') connection: string, @Param('secret') secret: string, @Req() req: WebhookRequest, @Res() res: Response): void {
    this.answer(connection, secret, req, res);
  }

  private answer(connectionId: string, pathSecret: string | undefined, req: WebhookRequest, res: Response): void {
    const status = this.receiver.receive({
      connectionId,
      pathSecret,
      tooLarge: !!req.webhookBodyTooLarge,
      method: req.method,
      uri: this.calledUri(req),
      headers: req.headers,
      body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
    });
    if (status === 413) res.setHeader('Connection', 'close'); // the rest of the body is not read
    res.status(status).end();
  }

  /** The URI the CRM called: server.public_url (behind a reverse proxy) + the path, else this request's own. */
  private calledUri(req: WebhookRequest): string {
    const base = this.config.server.public_url?.replace(/\/+$/, '') ?? `${req.protocol}://${req.headers.host ?? ''}`;
    return (base + req.originalUrl).replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (code) => DECODED_IN_URI[code.toUpperCase()]);
  }
}
