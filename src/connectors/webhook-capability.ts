import type { ReadContext } from './connector-definition';

/**
 * How a CRM's webhook call proves it comes from the CRM. A preset names its CRM's own way; a connection of a
 * CRM without one writes `webhook.verify` (hmac, basic, path_secret, header_secret). `secret` is always the
 * connection's `webhook.secret`.
 */
export type WebhookVerification =
  | {
      type: 'hmac';
      /** the header carrying the signature */
      header: string;
      algorithm: 'sha256' | 'sha1';
      encoding: 'hex' | 'base64';
      /** `body`, or a template of {{method}}, {{uri}}, {{body}}, {{header.<name>}} */
      signed: string;
      /** text before the signature in the header (e.g. `sha256=`) */
      prefix?: string;
      /** a header holding the call's time (Unix ms or s): refused when further than maxAgeMs from now */
      timestampHeader?: string;
      maxAgeMs?: number;
    }
  /**
   * a plain hash (no HMAC) of a template that holds the secret (`{{secret}}{{body}}`: HubSpot's v1 and v2 signatures);
   * with `versionHeader`, only a call whose header names `version` is checked this way. No timestamp is signed:
   * a call caught once can be replayed for ever
   */
  | {
      type: 'digest';
      header: string;
      algorithm: 'sha256' | 'sha1';
      encoding: 'hex' | 'base64';
      /** a template of {{secret}}, {{method}}, {{uri}}, {{body}}, {{header.<name>}} */
      signed: string;
      versionHeader?: string;
      version?: string;
    }
  /**
   * the CRM signs each call several ways, by version (HubSpot: v3, and v1 or v2 for some apps): a call passes when
   * one of the `accepted` versions verifies it; `accepted` is the connection's `webhook.signature_versions`, else
   * `defaults`
   */
  | { type: 'versions'; versions: Record<string, WebhookVerification>; defaults: string[]; accepted?: string[] }
  /** HTTP Basic auth whose password is the secret (the user name is not checked) */
  | { type: 'basic' }
  /** the secret is the URL's last part: POST /hooks/{connection}/{secret} */
  | { type: 'path_secret' }
  /** a header whose value is the secret */
  | { type: 'header_secret'; header: string }
  /** a form field (x-www-form-urlencoded body) whose value is the secret, e.g. Bitrix24's auth[application_token] */
  | { type: 'form_field'; field: string };

/** A webhook the CRM has registered for this connection. */
export interface WebhookRegistration {
  /** the CRM's id of the registration (when it has one) */
  id: string | null;
  url: string;
  /** the events it fires on, as the CRM names them */
  events: string[];
}

export interface WebhookTarget {
  /** the URL the CRM is to call (with the secret in its path where the CRM can carry it only there) */
  url: string;
  /**
   * `/hooks/<connection>`: a registration whose URL's path ends with it (or continues it with `/<secret>`) is this
   * connection's, whatever its host (an earlier address, another secret)
   */
  hookPath: string;
  /** the connection's webhook.secret */
  secret: string;
  connectionId: string;
}

/** What `webhooks register` did: registered through the CRM's API, or the steps a person follows. */
export type WebhookRegisterResult =
  | { status: 'registered'; registration: WebhookRegistration; replaced: number }
  | { status: 'manual'; steps: string[] };

/**
 * A connector's webhooks (optional): how its CRM's calls are verified, and the registration with the CRM's API
 * where the CRM allows it (else the steps a person follows, as `manual`).
 */
export interface WebhookCapability<S = unknown> {
  /** how calls of this connection's CRM are verified; null when the connector does not know (webhook.verify is then required) */
  verification(settings: S): WebhookVerification | null;
  /** registers target.url, leaving exactly one registration of this connection (its earlier ones are removed) */
  register(settings: S, context: WebhookContext<S>, target: WebhookTarget): Promise<WebhookRegisterResult>;
  /** the registrations of this connection (see WebhookTarget.hookPath); null when the CRM's API cannot tell */
  list(settings: S, context: WebhookContext<S>, target: WebhookTarget): Promise<WebhookRegistration[] | null>;
  /** removes this connection's registrations; the number removed, or the steps a person follows */
  unregister(settings: S, context: WebhookContext<S>, target: WebhookTarget): Promise<{ removed: number } | { status: 'manual'; steps: string[] }>;
}

export type WebhookContext<S> = Omit<ReadContext<S>, 'state'>;
