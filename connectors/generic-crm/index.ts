import type { CoreStream, StageMapping, StreamName } from 'tracker-sync/connector';
import { CheckResult, defineConnector, Page, ReadContext, ReadCursor, StreamSpec } from 'tracker-sync/connector';
import { discoverFields } from './discover';
import { readCatalog } from './discovery/catalog';
import { mappingWarnings, stageMapping } from './discovery/coverage';
import { GenericCrmSettings, PRESET_NAMES } from './settings';
import { CrmSession, withSession, withSessionYielding } from './crm-session';
import { sourceSession } from './source-session';
import { PageSpill } from './page-spill';
import { CORE_STREAMS, enabledStreams, pagesStreamOf, resolveSource, streamDefinition } from './source-config';
import { planStream } from './stream-plan';
import { listStages } from './stages';
import { readStream } from './stream-reader';
import { genericCrmWebhooks } from './webhooks';
import { EnrichSession, probeEnrichment } from './records/enricher';
import { ENRICH_FEATURES, EnrichFeature } from './definition/stream-definition';
import { genericCrmActions } from './crm-actions';

/**
 * Generic CRM connector: a declarative description of a CRM's REST API (a preset, or the user's own
 * `streams`), read page by page into canonical managers, clients and deals. No code per CRM.
 */
export default defineConnector<GenericCrmSettings>({
  name: 'generic-crm',
  description: `Any REST CRM described in config; presets: ${PRESET_NAMES.join(', ')}`,
  presets: PRESET_NAMES,
  settingsClass: GenericCrmSettings,

  streams(settings): StreamSpec[] {
    const source = resolveSource(settings);
    return enabledStreams(source).map((name) => {
      // a `from` stream follows the window and cursor of the stream whose pages it reads
      const pages = source.streams[pagesStreamOf(source, name)];
      const incremental = pages?.incremental;
      // lists read one after the other (more_requests), each sorted, are not one sorted sequence: the cursor
      // then moves at the stream's complete end, to the latest record read
      const sorted = !!incremental?.sorted && !(pages?.more_requests?.length);
      // a first read by id (Bitrix24's `first_read`) is not in updatedTime order: an old deal edited last comes first
      return { name, incremental: !!incremental, sorted, ...(sorted && pages?.first_read ? { firstReadUnsorted: true } : {}) };
    });
  },

  /** the run's session: token, limiter and agents of every request of the run (crm-session.ts) */
  open: (settings, context) => new CrmSession({ ...context, settings }),
  close: (session) => (session as CrmSession).close(),

  check: (settings, context) => withSession({ ...context, settings }, (inSession) => checkConnection(settings, inSession)),

  read: (stream: StreamName, cursor: ReadCursor, context: ReadContext<GenericCrmSettings>) =>
    withSessionYielding(context, (inSession) => readConnection(stream, cursor, inSession)),

  discover: (settings, context) => withSession({ ...context, settings }, (inSession) => discoverFields(settings, inSession)),

  catalog: (settings, context) => withSession({ ...context, settings }, (inSession) => readCatalog(settings, inSession)),

  stageMapping: (settings, catalog, context) => stageMapping(settings, catalog, context.workDir),

  /** named CRM actions of any outbound flow, from the flow's settings block (crm-actions.ts) */
  actions: genericCrmActions,

  stages: (settings, context) => withSession({ ...context, settings }, (inSession) => listStages(settings, inSession)),
  webhooks: genericCrmWebhooks,
});

/**
 * One page of the first stream, the enrichments, the catalog. Write-back's fields and lead delivery's targets are
 * their flows' to check (the daemon's check runs them after this one, through the actions).
 */
async function checkConnection(settings: GenericCrmSettings, context: Omit<ReadContext<GenericCrmSettings>, 'state'>): Promise<CheckResult> {
  try {
    const streams = enabledStreams(resolveSource(settings));
    if (streams.length === 0) return { ok: false, message: 'no stream is defined (set a preset or settings.streams)' };
    const { stream, leftOut } = await probeStreams(streams, settings, context);
    const origin = new URL(settings.base_url).origin;
    const answered = `${origin} answered the ${stream} request${leftOut.map((w) => `; ${w}`).join('')}${await enrichmentsLeftOut(settings, context)}`;
    const { warnings, uncovered } = await catalogReview(settings, context);
    const warned = { ...(warnings.length > 0 ? { warnings } : {}), ...(uncovered.length > 0 ? { uncovered_stages: uncovered } : {}) };
    return { ok: true, message: clauses([answered]), ...warned };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * One page of the first stream proves the URL, the credentials and the answer's shape. A stream the CRM leaves
 * out for this token (its `optional` answers: amoCRM's users to a token of no administrator) is named, and the
 * next stream proves them instead.
 */
async function probeStreams(streams: CoreStream[], settings: GenericCrmSettings, context: Omit<ReadContext<GenericCrmSettings>, 'state'>): Promise<{ stream: CoreStream; leftOut: string[] }> {
  const leftOut: string[] = [];
  for (const stream of streams) {
    const notices: string[] = [];
    const keep = (message: string) => notices.push(message.replace(/^connection [^,]+, stream [^:]+: /, ''));
    const logger = { log: () => {}, warn: keep, notice: keep };
    const probe = readConnection(stream, { since: null, until: new Date() }, { ...context, settings, state: null, limit: 1, logger });
    await probe.next();
    await probe.return(undefined);
    const refused = notices.find((n) => n.startsWith(`${stream} left out: `));
    if (!refused) return { stream, leftOut };
    leftOut.push(refused);
  }
  return { stream: streams[streams.length - 1], leftOut };
}

/** Stages status_map leaves out and a visit_field the CRM lacks, when the source describes its discovery. */
async function catalogReview(settings: GenericCrmSettings, context: Omit<ReadContext<GenericCrmSettings>, 'state'>): Promise<{ warnings: string[]; uncovered: StageMapping['stages'] }> {
  if (!resolveSource(settings).discover) return { warnings: [], uncovered: [] };
  try {
    const catalog = await readCatalog(settings, context);
    const uncovered = stageMapping(settings, catalog, context.workDir).stages.filter((stage) => stage.status === null);
    return { warnings: mappingWarnings(settings, catalog), uncovered };
  } catch (error) {
    return { warnings: [`the CRM's stages and fields could not be listed: ${error instanceof Error ? error.message : String(error)}`], uncovered: [] };
  }
}

/**
 * A deals page with its enrichments (products, stage history): a feature the CRM refuses (a token without the
 * scope, a plan without it) is named with how to grant it. The deals still go, so `check` stays ok.
 */
async function enrichmentsLeftOut(settings: GenericCrmSettings, context: Omit<ReadContext<GenericCrmSettings>, 'state'>): Promise<string> {
  const source = resolveSource(settings);
  const features = (source.streams.deals?.enrich ?? []).filter((e) => e.feature && source[e.feature] !== false);
  if (!enabledStreams(source).includes('deals') || features.length === 0) return '';
  const warnings: string[] = [];
  const keep = (message: string) => warnings.push(message.replace(/^connection [^,]+, stream deals: /, ''));
  const logger = { log: () => {}, warn: keep, notice: keep };
  const probe = readConnection('deals', { since: null, until: new Date() }, { ...context, settings, state: null, limit: 1, logger });
  await probe.next();
  await probe.return(undefined);
  // the sampled deal may hold no products: each feature's own probe request asks the CRM directly
  const switchedOff = new Set<EnrichFeature>(ENRICH_FEATURES.filter((feature) => source[feature] === false));
  const session = new EnrichSession(switchedOff, keep, `connection ${context.connectionId}, stream deals`);
  for (const message of warnings) session.unavailable.set(message.split(' left out: ')[0], message);
  const requester = sourceSession(context).requester('check');
  for (const definition of features) await probeEnrichment(definition, requester, session);
  const leftOut = warnings.filter((w) => / left out: /.test(w));
  return leftOut.length ? `; ${clauses(leftOut)}` : '';
}

/** Parts of one message joined by "; ": a part's closing full stop goes (not "…without history.; lead_delivery: …"). */
export function clauses(parts: string[]): string {
  return parts.map((part) => part.replace(/\.\s*$/, '')).join('; ');
}

/** Configuration problems (no token, an unknown stream, a bad expression) surface as errors of the read, named. */
async function* readConnection(stream: StreamName, cursor: ReadCursor, context: ReadContext<GenericCrmSettings>): AsyncGenerator<Page> {
  const where = `connection ${context.connectionId}, stream ${stream}`;
  if (!CORE_STREAMS.includes(stream as CoreStream)) {
    throw new Error(`${where}: generic-crm offers managers, clients and deals, not ${stream}`);
  }
  const name = stream as CoreStream;
  let inputs: Parameters<typeof readStream>[0];
  try {
    const session = sourceSession(context);
    const { source } = session;
    const plan = planStream(name, streamDefinition(source, name), source);
    const pagesOf = pagesStreamOf(source, name);
    // Another stream of this run reading the same pages gets them from disk instead of a second fetch.
    const enabled = enabledStreams(source);
    const later = (context.laterStreams ?? []).filter((s): s is CoreStream => enabled.includes(s as CoreStream));
    const pages = pagesOf === name ? plan : planStream(pagesOf, streamDefinition(source, pagesOf), source);
    const switchedOff = new Set<EnrichFeature>((['products', 'history'] as const).filter((feature) => source[feature] === false));
    inputs = {
      plan,
      pages,
      source,
      requester: session.requester(pagesOf),
      cursor: withRecheck(cursor, pages.definition.incremental?.recheck_days),
      // a refused feature is a notice: the run keeps it and the status page shows it
      limit: context.limit,
      enrich: new EnrichSession(switchedOff, (message) => (context.logger.notice ?? context.logger.warn)(message), where),
      context,
      where: pagesOf === name ? where : `${where} (pages of ${pagesOf})`,
      redact: (text) => session.redactor.redact(text),
      spill: PageSpill.of(context.workDir, context.connectionId, pagesOf),
      keepPages: later.some((s) => pagesStreamOf(source, s) === pagesOf),
    };
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`);
  }
  yield* readStream(inputs);
}

/**
 * `incremental.recheck_days`: the window reaches back at least that many days, so a change the CRM does not
 * reflect in the modification time (a product row, a stage change of some CRMs) is read within one run; the
 * engine's fingerprints drop the deals that did not change. A first or full run (no `since`) is unchanged.
 */
function withRecheck(cursor: ReadCursor, days: number | undefined): ReadCursor {
  if (!days || !cursor.since) return cursor;
  const earliest = new Date(cursor.until.getTime() - days * 86_400_000);
  return earliest < cursor.since ? { ...cursor, since: earliest } : cursor;
}
