/**
 * One decorator per rule, each with a single message worded to follow the offending value:
 * `tracker.batch_size: "abc" must be an integer between 1 and 10000`.
 * (A missing required value is reported as "is required" by validation-problems.ts.)
 */
import { ValidateBy, ValidationArguments } from 'class-validator';
import { cronProblem } from './cron-expression';
import { projectNumberProblem } from './project-number';

type Check = (value: unknown) => boolean;

function rule(name: string, check: Check, message: string | ((args: ValidationArguments) => string)) {
  return ValidateBy({
    name,
    validator: {
      validate: (value) => check(value),
      defaultMessage: (args) => (typeof message === 'string' ? message : message(args!)),
    },
  });
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function IntRange(min: number, max?: number): PropertyDecorator {
  const within = (v: number) => v >= min && (max === undefined || v <= max);
  const range = max === undefined ? `>= ${min}` : `between ${min} and ${max}`;
  return rule('intRange', (v) => Number.isInteger(v) && within(v as number), `must be an integer ${range}`);
}

export function NumberRange(min: number, max: number): PropertyDecorator {
  const check: Check = (v) => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
  return rule('numberRange', check, `must be a number between ${min} and ${max}`);
}

export function OneOf(values: readonly string[]): PropertyDecorator {
  const listed = values.map((v) => JSON.stringify(v)).join(', ');
  return rule('oneOf', (v) => values.includes(v as string), `must be one of ${listed}`);
}

export function Text(): PropertyDecorator {
  return rule('text', (v) => typeof v === 'string' && v.trim() !== '', 'must be a non-empty string');
}

export function TextList(): PropertyDecorator {
  const check: Check = (v) => Array.isArray(v) && v.every((item) => typeof item === 'string' && item !== '');
  return rule('textList', check, 'must be a list of non-empty strings');
}

export function Flag(): PropertyDecorator {
  return rule('flag', (v) => typeof v === 'boolean', 'must be true or false');
}

export function Mapping(): PropertyDecorator {
  return rule('mapping', isMapping, 'must be a mapping (key: value)');
}

export function List(): PropertyDecorator {
  return rule('list', Array.isArray, 'must be a list');
}

export function Matches(pattern: RegExp, message: string): PropertyDecorator {
  return rule('matches', (v) => typeof v === 'string' && pattern.test(v), message);
}

/** A project number as the service writes it ("2"); another spelling of one ("02", "+2") is told the canonical one. */
export function ProjectNumber(): PropertyDecorator {
  return rule('projectNumber', (v) => projectNumberProblem(v) === undefined, (args) => projectNumberProblem(args.value)!);
}

export function UrlWithProtocol(protocols: readonly string[]): PropertyDecorator {
  const check: Check = (v) => typeof v === 'string' && hasProtocol(v, protocols);
  return rule('url', check, `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`);
}

function hasProtocol(value: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol.replace(/:$/, '')) && (url.host !== '' || url.pathname !== '');
  } catch {
    return false;
  }
}

export function CronSchedule(): PropertyDecorator {
  const check: Check = (v) => typeof v === 'string' && cronProblem(v) === undefined;
  const message = ({ value }: ValidationArguments) =>
    typeof value === 'string' ? `is not a cron expression (${cronProblem(value)})` : 'is not a cron expression';
  return rule('cron', check, message);
}
