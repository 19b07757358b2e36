import { AuthDefinition, AuthType } from '../definition/source-definition';

/** The secret an authenticator uses: auth.token wins over settings.token; '' means none. */
export function authSecret(definition: AuthDefinition, token: string | undefined): string {
  return definition.token ?? token ?? '';
}

/** Without an explicit type, a secret means bearer and no secret means no auth. */
export function authTypeOf(definition: AuthDefinition, secret: string): AuthType {
  return definition.type ?? (secret ? 'bearer' : 'none');
}

/** oauth2 fetches its own token, basic may use username/password; every other type sends the secret. */
export function authNeedsSecret(type: AuthType): boolean {
  return type !== 'none' && type !== 'oauth2' && type !== 'basic';
}

/** The auth type that lacks its secret, or null when the definition and token are enough. */
export function missingSecretFor(definition: AuthDefinition, token: string | undefined): AuthType | null {
  const secret = authSecret(definition, token);
  const type = authTypeOf(definition, secret);
  return authNeedsSecret(type) && !secret ? type : null;
}
