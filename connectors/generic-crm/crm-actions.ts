import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { CrmActions, CrmActionsCapability, WriteContext } from 'tracker-sync/connector';
import { CrmActionRefusedError, sleep, UnknownOutcomeError } from 'tracker-sync/connector';
import { CrmActionDefinition } from './definition/crm-action-definition';
import { ErrorDefinition } from './definition/source-definition';
import { isPlainObject } from './definition/validators';
import { LEGACY_FLOW_BLOCKS, ServedAction } from './flow-blocks';
import { Requester } from './http/requester';
import { RetryPolicy } from './http/retry-policy';
import { DailyLimitError, RateBlockError, SourceError } from './http/source-error';
import { readLookupPages } from './pagination/lead-pages';
import { getPath } from './records/paths';
import { GenericCrmSettings } from './settings';
import { resolveSource } from './source-config';
import { sourceSession } from './source-session';
import { evaluateAnswer, renderRequest } from './request-template';
import { TemplateVariables } from './templates';

export { CrmActionDefinition };

/** how many times a write refused for the rate (429, or the source's retry.extra answers) is sent again */
const RATE_RETRIES = 5;

/**
 * The generic CRM's named actions (src/connectors/crm-actions.ts): `settings.<flow key>.actions.<name>`, each a
 * request as lead delivery's are (`method`, `path`, `query`, `body` templates; `answer` JSONata over the CRM's
 * answer; `paginator` and `records` for a look-up the CRM pages). A preset ships them under the flow's key, the
 * user's block of the same key switches the flow on. A GET, or an action with a paginator, is a look-up (`kind:
 * read` says so of a POST that reads): every page is read, a match on the last page counting as one on the first.
 * Any other action (or `kind: write`) is a write, sent once; `kind: update` sets values, retried as reads are. A 4xx
 * of any (not the token's, not the rate's) is the record's refusal: the flow rejects that item and goes on.
 * Write-back's and lead delivery's blocks keep their own keys (flow-blocks.ts): they are served as actions too.
 */
export const genericCrmActions: CrmActionsCapability<GenericCrmSettings> = {
  block(settings, key) {
    if (!isPlainObject((settings as unknown as Record<string, unknown>)[key])) return null;
    const source = resolveSource(settings);
    const resolved = (source as unknown as Record<string, unknown>)[key];
    if (!isPlainObject(resolved)) return null;
    return LEGACY_FLOW_BLOCKS[key]?.block(source) ?? resolved;
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
  private readonly actions: Record<string, ServedAction>;
  private readonly reader: Requester;
  private readonly writer: Requester;
  private readonly retry: RetryPolicy;
  private readonly where: string;
  private readonly errors: ErrorDefinition[];
  private readonly redact: (text: string) => string;

  constructor(private readonly key: string, private readonly context: WriteContext<GenericCrmSettings>) {
    const session = sourceSession(context);
    this.where = `connection ${context.connectionId}`;
    const legacy = LEGACY_FLOW_BLOCKS[key];
    if (legacy) {
      this.actions = legacy.actions(session.source);
    } else {
      const block = session.source[key as keyof GenericCrmSettings] as unknown;
      const actions = isPlainObject(block) ? (block as Record<string, unknown>).actions : undefined;
      if (!isPlainObject(actions)) throw new Error(`${this.where}: settings.${key}.actions is missing (${session.source.preset ? `preset ${session.source.preset} ships none` : 'no preset: describe them'})`);
      this.actions = Object.fromEntries(Object.entries(actions).map(([name, plain]) => [name, { definition: this.checked(name, plain), setting: `${key}.actions.${name}` }]));
    }
    // write-back and lead delivery keep their requesters' names: a failure's message names the flow as before
    const requester = legacy ? (key as 'write_back' | 'lead_delivery') : 'actions';
    this.reader = session.requester(requester);
    this.writer = session.requester(requester, { max_attempts: 1 });
    this.retry = new RetryPolicy(session.source.retry);
    this.errors = session.source.errors ?? [];
    this.redact = (text) => session.redactor.redact(text);
  }

  has(name: string): boolean {
    return !!this.actions[name] && !this.actions[name].missing;
  }

  reads(name: string): boolean {
    const served = this.served(name);
    if (served.read) return true;
    const action = served.definition!;
    return action.kind ? action.kind === 'read' : (action.method ?? 'GET') === 'GET' || !!action.paginator;
  }

  async pages(name: string, variables: TemplateVariables): Promise<unknown[][]> {
    const served = this.served(name);
    if (served.read) return [[await this.run(name, variables)].flat()];
    const action = served.definition!;
    const at = `${this.where}: ${served.setting}`;
    const spec = await renderRequest(action, variables);
    return this.asRefusal(name, () => readLookupPages(action, spec, this.reader, (body) => evaluateAnswer(at, action, body, variables), at)) as Promise<unknown[][]>;
  }

  batchSize(name: string): number {
    return this.served(name).batchSize ?? 1;
  }

  setting(name: string): string {
    return this.actions[name]?.setting ?? `${this.key}.actions.${name}`;
  }

  async run(name: string, variables: TemplateVariables): Promise<unknown> {
    const served = this.served(name);
    const at = `${this.where}: ${served.setting}`;
    if (served.read) return this.asRefusal(name, () => served.read!(this.reader));
    const action = served.definition!;
    const spec = await renderRequest(action, variables);
    if (this.reads(name)) return (await this.pages(name, variables)).flat();
    if (action.kind === 'update') {
      // an update sent again sets the same values: retried as reads are; what outlasts the retries fails the pass
      return this.asRefusal(name, async () => evaluateAnswer(at, action, (await this.reader.send({ ...spec, recordWrite: true })).body, variables));
    }
    for (let attempt = 1; ; attempt += 1) {
      try {
        const answer = await this.writer.send({ ...spec, recordWrite: true });
        return await evaluateAnswer(at, action, answer.body, variables);
      } catch (error) {
        if (!(error instanceof SourceError)) throw error;
        // a spent daily quota refused the write (nothing was taken) and no retry lifts it: the pass fails as it is
        if (error instanceof DailyLimitError) throw error;
        const status = error.status;
        if (isRateRefusal(this.retry, status, error.answer) && attempt <= RATE_RETRIES) {
          await sleep(this.retry.delayMs(attempt), this.context.signal);
          continue;
        }
        // a refused token, or an address the CRM blocked, fails the pass as it is (nothing was taken)
        if (error.credentialsRefused || error instanceof RateBlockError) throw error;
        if (status === undefined || status >= 500 || status === 429) throw new UnknownOutcomeError(error.message);
        throw this.refusal(name, 'the CRM refused it', error);
      }
    }
  }

  /** A read or an update: a record the CRM does not have or will not take (a deal deleted meanwhile) is that item's problem, not the pass's. */
  private async asRefusal(name: string, send: () => Promise<unknown>): Promise<unknown> {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof SourceError) || !isRecordRefusal(error)) throw error;
      throw this.refusal(name, this.reads(name) ? 'the CRM refused the look-up' : 'the CRM refused it', error);
    }
  }

  private refusal(name: string, what: string, error: SourceError): CrmActionRefusedError {
    const reason = this.redact(crmMessage(error, this.errors) ?? error.reason);
    return new CrmActionRefusedError(`${what}: ${reason}`, this.setting(name), reason, error.status);
  }

  private served(name: string): ServedAction {
    const served = this.actions[name];
    if (served?.missing) throw new Error(`${this.where}: ${served.missing}`);
    if (!served) throw new Error(`${this.where}: settings.${this.key}.actions.${name} is missing`);
    return served;
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

/**
 * A write's answer that proves the CRM took nothing, so the write may be sent again as it is: a 429, or an answer a
 * `retry.extra` rule names by its text or by a 4xx status (Bitrix24's 503 QUERY_LIMIT_EXCEEDED, its
 * OPERATION_TIME_LIMIT). Any other 5xx (503, 507, 524, …: the retry policy retries reads on them), a timeout or a
 * dropped connection proves nothing: the record may have been made before the CRM failed, so its outcome is unknown
 * and the flow looks it up before anything is sent again. An `extra` rule of a bare 5xx status names no refusal.
 */
function isRateRefusal(retry: RetryPolicy, status: number | undefined, answer: unknown): boolean {
  if (status === undefined) return false;
  if (status === 429) return true;
  const rule = retry.ruleFor(status, typeof answer === 'string' ? answer : JSON.stringify(answer ?? ''));
  return !!rule && (rule.body_contains !== undefined || status < 500);
}

/** A 4xx that is neither the token's refusal nor the rate's: the record's. */
function isRecordRefusal(error: SourceError): boolean {
  return !error.credentialsRefused && !(error instanceof RateBlockError) && !(error instanceof DailyLimitError) && error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 429;
}

/**
 * The CRM's own message of a refused action, where the source's `errors` rules say it is (`HTTP 422: stage is
 * closed`); undefined when they find none (the caller then gives the answer itself, redacted).
 */
function crmMessage(error: SourceError, rules: ErrorDefinition[]): string | undefined {
  for (const rule of rules) {
    const message = rule.message_path ? getPath(error.answer, rule.message_path) : undefined;
    if (typeof message === 'string' && message.trim() !== '') return `HTTP ${error.status}: ${message.trim()}`;
  }
  return undefined;
}
