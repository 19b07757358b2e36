import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { didYouMean, formatValue } from '../config/validation-problems';

/**
 * Validation of a connection's `settings` with the connector's class-validator class.
 * Messages carry the config path of the offending key: `connections[0].settings.deals.path: must be a string`.
 */

const VALIDATOR_OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false } as const;

export function toSettingsInstance<S extends object>(settingsClass: new () => S, settings: unknown): S {
  const plain = settings === undefined || settings === null ? {} : settings;
  return plainToInstance(settingsClass, plain as object, { exposeDefaultValues: true }) as S;
}

export function settingsProblems(settingsClass: new () => object, settings: unknown, path: string): string[] {
  if (settings !== undefined && settings !== null && (typeof settings !== 'object' || Array.isArray(settings))) {
    return [`${path}: must be an object`];
  }
  const instance = toSettingsInstance(settingsClass, settings);
  return flattenErrors(validateSync(instance, VALIDATOR_OPTIONS), path);
}

function flattenErrors(errors: ValidationError[], parentPath: string): string[] {
  const problems: string[] = [];
  for (const error of errors) {
    const path = joinPath(parentPath, error.property);
    const messages = Object.entries(error.constraints ?? {}).map(([constraint, message]) => describe(constraint, message, error));
    // One line per key: a value failing several rules says so once.
    if (messages.length > 0) problems.push(`${path}: ${writtenValue(error)}${[...new Set(messages)].join('; ')}`);
    problems.push(...flattenErrors(error.children ?? [], path));
  }
  return problems;
}

/** A value outside a list repeats what was written, as the config's own problems do: `preset: "amocrn" must be one of …`. */
function writtenValue(error: ValidationError): string {
  const value: unknown = error.value;
  if (!error.constraints?.isIn || value === undefined || value === null || typeof value === 'object') return '';
  return `${formatValue(error.property, value)} `;
}

function joinPath(parent: string, property: string): string {
  return /^\d+$/.test(property) ? `${parent}[${property}]` : `${parent}.${property}`;
}

/** class-validator starts each message with the property name; the path already says it. */
function describe(constraint: string, message: string, error: ValidationError): string {
  if (constraint === 'whitelistValidation') return `unknown key${didYouMean(error)}`;
  const prefix = `${error.property} `;
  const text = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  return text.replace(' conforming to the specified constraints', '');
}
