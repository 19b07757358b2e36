import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { deepMerge } from '../definition/merge';
import { availablePresets, loadPreset } from '../definition/presets';
import { AuthDefinition, AuthType } from '../definition/source-definition';
import { isPlainObject } from '../definition/validators';
import { missingSecretFor } from './auth-secret';

/** The part of the settings that decides whether a token is needed. */
interface AuthSettings {
  preset?: unknown;
  token?: unknown;
  auth?: unknown;
}

/**
 * `settings.token`: a string when given, and required when the auth in force (the preset's, overridden by
 * settings.auth) sends a secret and no auth.token is set. Caught at load time, so a token from an unset
 * environment variable stops the config instead of failing every run.
 */
export function IsTokenWhereAuthNeedsIt(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isTokenWhereAuthNeedsIt',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown, args: ValidationArguments) => {
          if (value !== undefined && value !== '') return typeof value === 'string';
          return missingSecretOf(args.object as AuthSettings) === null;
        },
        defaultMessage: (args?: ValidationArguments) => {
          if (args && args.value !== undefined && args.value !== '') return 'must be a string';
          return missingTokenMessage(args?.object as AuthSettings, missingSecretOf(args?.object as AuthSettings) ?? 'bearer');
        },
      },
    });
}

/**
 * `settings.auth`: an oauth2 auth sets every key the CRM's token endpoint requires (the preset's
 * `auth.oauth2_requires`: amoCRM's redirect_uri). Caught at load time, not at the first refresh.
 */
export function IsOAuth2Complete(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isOAuth2Complete',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (_value: unknown, args: ValidationArguments) => missingOAuth2Key(args.object as AuthSettings) === null,
        defaultMessage: (args?: ValidationArguments) => {
          const settings = args?.object as AuthSettings | undefined;
          return `needs ${missingOAuth2Key(settings)} with type oauth2: the ${String(settings?.preset ?? 'configured')} token endpoint requires it on every refresh (the integration's value, exactly as in its settings)`;
        },
      },
    });
}

function missingOAuth2Key(settings: AuthSettings | undefined): string | null {
  if (!settings || settings.auth === undefined) return null;
  const auth = effectiveAuth(settings);
  if (!auth || auth.type !== 'oauth2') return null;
  return (auth.oauth2_requires ?? []).find((key) => !auth[key]) ?? null;
}

function missingSecretOf(settings: AuthSettings | undefined): AuthType | null {
  if (!settings) return null;
  const auth = effectiveAuth(settings);
  return auth ? missingSecretFor(auth, undefined) : null;
}

/** The preset's auth with settings.auth over it; null when either is malformed (their own checks say so). */
function effectiveAuth(settings: AuthSettings): AuthDefinition | null {
  const preset = settings.preset;
  if (preset !== undefined && (typeof preset !== 'string' || !availablePresets().includes(preset))) return null;
  if (settings.auth !== undefined && !isPlainObject(settings.auth)) return null;
  const presetAuth = loadPreset(preset as string | undefined).auth ?? {};
  if (!isPlainObject(presetAuth)) return null;
  return deepMerge(presetAuth, withoutUndefined(settings.auth ?? {})) as AuthDefinition;
}

function missingTokenMessage(settings: AuthSettings | undefined, type: AuthType): string {
  const preset = typeof settings?.preset === 'string' ? settings.preset : null;
  const ownType = isPlainObject(settings?.auth) && settings.auth.type !== undefined;
  const who = preset && !ownType ? `the ${preset} preset` : 'the configured auth';
  const variable = `${(preset ?? 'crm').toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_TOKEN`;
  return `is required: ${who} needs a token (auth ${type}); set it, e.g. token: \${${variable}} (or auth.token)`;
}

/** Settings instances carry every declared key, undefined ones too: those must not override the preset. */
function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
