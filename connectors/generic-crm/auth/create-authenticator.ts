import * as path from 'path';
import type { ConnectorSecrets } from 'tracker-sync/connector';
import { AuthDefinition } from '../definition/source-definition';
import { Redactor } from '../http/redactor';
import { authNeedsSecret, authSecret, authTypeOf } from './auth-secret';
import { Authenticator } from './authenticator';
import { OAuth2Auth, TokenAgents } from './oauth2-auth';
import { BasicAuth, BearerAuth, HeaderKeyAuth, NoAuth, QueryParamAuth, WebhookPathAuth } from './static-auth';

export interface AuthInputs {
  definition: AuthDefinition;
  /** settings.token: the secret of every auth type unless auth.token is set */
  token?: string;
  baseUrl: string;
  redactor: Redactor;
  workDir?: string;
  /** the store's shared secrets: rotating OAuth2 tokens live there when given */
  secrets?: ConnectorSecrets;
  /** the session's keep-alive agents: an OAuth2 token request goes through them too, and ends with them */
  agents?: TokenAgents;
}

export function createAuthenticator({ definition, token, baseUrl, redactor, workDir, secrets, agents }: AuthInputs): Authenticator {
  const secret = authSecret(definition, token);
  redactor.add(secret, definition.password);
  const type = authTypeOf(definition, secret);
  if (authNeedsSecret(type) && !secret) {
    throw new Error(`auth ${type} needs a token (settings.token or settings.auth.token)`);
  }
  switch (type) {
    case 'none':
      return new NoAuth();
    case 'bearer':
      return new BearerAuth(secret);
    case 'api_key_header':
      return new HeaderKeyAuth(definition, secret);
    case 'basic':
      return new BasicAuth(definition.username ?? '', definition.password ?? secret);
    case 'query_param':
      return new QueryParamAuth(definition.param ?? 'api_token', secret);
    case 'webhook_path':
      return new WebhookPathAuth(new URL(baseUrl).pathname, secret);
    case 'oauth2': {
      if (!definition.token_url) throw new Error('auth oauth2 needs token_url');
      const missing = (definition.oauth2_requires ?? []).find((key) => !definition[key]);
      if (missing) throw new Error(`auth oauth2 of this CRM needs settings.auth.${missing}${OAUTH2_WHY[missing] ?? ''}`);
      const tokenUrl = new URL(definition.token_url, withSlash(baseUrl)).toString();
      const cacheFile = workDir ? path.join(workDir, 'oauth2-token.json') : null;
      return new OAuth2Auth(definition, tokenUrl, redactor, cacheFile, secrets ?? null, agents);
    }
  }
}

const OAUTH2_WHY: Record<string, string> = {
  redirect_uri: ": the integration's redirect URI exactly as in its settings (the token endpoint checks it on every refresh)",
};

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
