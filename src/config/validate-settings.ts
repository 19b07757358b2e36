/**
 * For connector authors and the connector registry: validates a connection's `settings` against
 * the connector's class-validator settings class with the same rules and wording as the rest of
 * the config (unknown keys rejected, problems prefixed with the config path).
 */
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { isMapping } from './config-validators';
import { describeValidationErrors } from './validation-problems';

export interface SettingsCheck<T> {
  /** The settings as an instance of the class (defaults applied); use it only when `problems` is empty. */
  value: T;
  problems: string[];
}

export function validateSettings<T extends object>(settingsClass: new () => T, settings: unknown, path: string): SettingsCheck<T> {
  if (!isMapping(settings)) {
    return { value: new settingsClass(), problems: [`${path}: must be a mapping (key: value)`] };
  }
  const value = plainToInstance(settingsClass, settings);
  const errors = validateSync(value, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
  return { value, problems: describeValidationErrors(errors, { parent: path, written: settings }) };
}
