import { plainToInstance } from 'class-transformer';
import { IsIn, IsOptional, validateSync } from 'class-validator';
import type { CrmActions, CrmActionsCapability, WriteContext } from 'tracker-sync/connector';
import { CrmActionRefusedError, sleep, UnknownOutcomeError } from 'tracker-sync/connector';
import { LeadRequestDefinition } from './definition/lead-delivery-definition';
import { isPlainObject } from './definition/validators';
import { Requester } from './http/requester';
import { RetryPolicy } from './http/retry-policy';
import { RateBlockError, SourceError } from './http/source-error';
import { readLookupPages } from './pagination/lead-pages';
import { getPath } from './records/paths';
import { GenericCrmSettings } from './settings';
import { resolveSource } from './source-config';
import { sourceSession } from './source-session';
import { evaluateAnswer, renderRequest } from './request-template';
import { TemplateVariables } from './templates';

/** One action: a request as lead delivery's, and whether it reads (default: a GET, or one with a paginator) or writes. */
export class CrmActionDefinition extends LeadRequestDefinition {
  /** `read`: a look-up (retried, every page); `write`: sent once (HubSpot's batch read is a POST that reads) */
  @IsOptional() @IsIn(['read', 'write']) kind?: 'read' | 'write';
}

/** how many times a write refused for the rate (429, or the source's retry.extra answers) is sent again */
const RATE_RETRIES = 5;

/**
 * The generic CRM's named actions (src/connectors/crm-actions.ts): `settings.<flow key>.actions.<name>`, each a
 * request as lead delivery's are (`method`, `path`, `query`, `body` templates; `answer` JSONata over the CRM's
 * answer; `paginator` and `records` for a look-up the CRM pages). A preset ships them under the flow's key, the
 * user's block of the same key switches the flow on. A GET, or an action with a paginator, is a look-up (`kind:
 * read` says so of a POST that reads): every page is read, a match on the last page counting as one on the first.
 * Any other action (or `kind: write`) is a write, sent once. A 4xx of either (not the token's, not the rate's) is
 * the record's refusal: the flow rejects that item and goes on.
 */
export const genericCrmActions: CrmActionsCapability<GenericCrmSettings> = {
  block(settings, key) {
    if (!isPlainObject((settings as unknown as Record<string, unknown>)[key])) return null;
    const resolved = (resolveSource(settings) as unknown as Record<string, unknown>)[key];
    return isPlainObject(resolved) ? resolved : null;
  },

  open: (key, context) => new GenericCrmActions(key, context),

  flowKeys(settings) {
    const user = settings as Record<string, unknown>;
    let resolved: Record<string, unknown> = user;
    try {
      resolved = resolveSource(user as unknown as GenericCrmSettings) as unknown as Record<string, unknown>;
    } catch {
      // an unknown preset is the settings class's to report; the user's own blocks still count
    }
    return Object.keys(user).filter((key) => isPlainObject(user[key]) && isPlainObject(resolved[key]) && isPlainObject((resolved[key] as Record<string, unknown>).actions));
  },
};

class GenericCrmActions implements CrmActions {
  private readonly actions: Record<string, CrmActionDefinition>;
  private readonly reader: Requester;
  private readonly writer: Requester;
  private readonly retry: RetryPolicy;
  private readonly where: string;
  private readonly redact: (text: string) => string;

  constructor(private readonly key: string, private readonly context: WriteContext<GenericCrmSettings>) {
    const session = sourceSession(context);
    this.where = `connection ${context.connectionId}`;
    const block = session.source[key as keyof GenericCrmSettings] as unknown;
    const actions = isPlainObject(block) ? (block as Record<string, unknown>).actions : undefined;
    if (!isPlainObject(actions)) throw new Error(`${this.where}: settings.${key}.actions is missing (${session.source.preset ? `preset ${session.source.preset} ships none` : 'no preset: describe them'})`);
    this.actions = Object.fromEntries(Object.entries(actions).map(([name, plain]) => [name, this.checked(name, plain)]));
    this.reader = session.requester('actions');
    this.writer = session.requester('actions', { max_attempts: 1 });
    this.retry = new RetryPolicy(session.source.retry);
    this.redact = (text) => session.redactor.redact(text);
  }

  has(name: string): boolean {
    return name in this.actions;
  }

  reads(name: string): boolean {
    const action = this.action(name);
    return action.kind ? action.kind === 'read' : (action.method ?? 'GET') === 'GET' || !!action.paginator;
  }

  async run(name: string, variables: TemplateVariables): Promise<unknown> {
    const action = this.action(name);
    const spec = await renderRequest(action, variables);
    const at = `${this.where}: ${this.key}.actions.${name}`;
    if (this.reads(name)) {
      try {
        return (await readLookupPages(action, spec, this.reader, (body) => evaluateAnswer(at, action, body, variables), at)).flat();
      } catch (error) {
        // a record the CRM does not have or will not show (a deal deleted meanwhile) is that item's problem, not the pass's
        if (!(error instanceof SourceError) || !isRecordRefusal(error)) throw error;
        throw new CrmActionRefusedError(`the CRM refused the look-up: ${this.redact(crmMessage(error) ?? error.reason)}`, `${this.key}.actions.${name}`);
      }
    }
    for (let attempt = 1; ; attempt += 1) {
      try {
        const answer = await this.writer.send({ ...spec, recordWrite: true });
        return await evaluateAnswer(at, action, answer.body, variables);
      } catch (error) {
        if (!(error instanceof SourceError)) throw error;
        const status = error.status;
        const rateRefusal = status === 429 || (status !== undefined && status !== 500 && status !== 502 && status !== 504 && this.retry.retryReason(status, JSON.stringify(error.answer ?? '')) !== null);
        if (rateRefusal && attempt <= RATE_RETRIES) {
          await sleep(this.retry.delayMs(attempt), this.context.signal);
          continue;
        }
        // a refused token, or an address the CRM blocked, fails the pass as it is (nothing was taken)
        if (error.credentialsRefused || error instanceof RateBlockError) throw error;
        if (status === undefined || status >= 500 || status === 429) throw new UnknownOutcomeError(error.message);
        throw new CrmActionRefusedError(`the CRM refused it: ${this.redact(crmMessage(error) ?? error.reason)}`, `${this.key}.actions.${name}`);
      }
    }
  }

  private action(name: string): CrmActionDefinition {
    const action = this.actions[name];
    if (!action) throw new Error(`${this.where}: settings.${this.key}.actions.${name} is missing`);
    return action;
  }

  /** An action as the user or the preset wrote it, checked with lead delivery's request class (errors name the key). */
  private checked(name: string, plain: unknown): CrmActionDefinition {
    const action = plainToInstance(CrmActionDefinition, isPlainObject(plain) ? plain : {});
    const problems = validateSync(action).flatMap((e) => [
      ...Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`),
      ...(e.children ?? []).flatMap((c) => Object.values(c.constraints ?? {}).map((m) => `${e.property}.${c.property}: ${m}`)),
    ]);
    if (problems.length) throw new Error(`${this.where}: settings.${this.key}.actions.${name}: ${problems.join('; ')}`);
    return action;
  }
}

/** A 4xx that is neither the token's refusal nor the rate's: the record's. */
function isRecordRefusal(error: SourceError): boolean {
  return !error.credentialsRefused && !(error instanceof RateBlockError) && error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 429;
}

/** The CRM's own message of a refused write, from the answers the source's `errors` rules describe. */
function crmMessage(error: SourceError): string | undefined {
  const answer = error.answer as Record<string, unknown> | undefined;
  const message = answer && (getPath(answer, 'message') ?? getPath(answer, 'error_description') ?? getPath(answer, 'error') ?? getPath(answer, 'title'));
  return typeof message === 'string' && message.trim() ? `HTTP ${error.status}: ${message.trim()}` : undefined;
}
