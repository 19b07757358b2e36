import type { CoreStream, StreamName } from '../../src/connectors/canonical';
import { defineConnector, Page, ReadContext, ReadCursor, StreamSpec } from '../../src/connectors/connector-definition';
import { discoverFields } from './discover';
import { GenericCrmSettings, PRESET_NAMES } from './settings';
import { openSession } from './source-session';
import { PageSpill } from './page-spill';
import { CORE_STREAMS, enabledStreams, pagesStreamOf, resolveSource, streamDefinition } from './source-config';
import { planStream } from './stream-plan';
import { readStream } from './stream-reader';
import { genericCrmWebhooks } from './webhooks';
import { genericCrmWrite } from './write-back';

/**
 * Generic CRM connector: a declarative description of a CRM's REST API (a preset, or the user's own
 * `streams`), read page by page into canonical managers, clients and deals. No code per CRM.
 */
export default defineConnector<GenericCrmSettings>({
  name: 'generic-crm',
  description: `Any REST CRM described in config; presets: ${PRESET_NAMES.join(', ')}`,
  settingsClass: GenericCrmSettings,

  streams(settings): StreamSpec[] {
    const source = resolveSource(settings);
    return enabledStreams(source).map((name) => {
      // a `from` stream follows the window and cursor of the stream whose pages it reads
      const incremental = source.streams[pagesStreamOf(source, name)]?.incremental;
      return { name, incremental: !!incremental, sorted: !!incremental?.sorted };
    });
  },

  async check(settings, context) {
    try {
      const [first] = enabledStreams(resolveSource(settings));
      if (!first) return { ok: false, message: 'no stream is defined (set a preset or settings.streams)' };
      // One page of the first stream proves the URL, the credentials and the answer's shape.
      const quiet = { log: () => {}, warn: () => {} };
      const probe = readConnection(first, { since: null, until: new Date() }, { ...context, settings, state: null, limit: 1, logger: quiet });
      await probe.next();
      await probe.return(undefined);
      const answered = `${new URL(settings.base_url).origin} answered the ${first} request`;
      // configured write-back fields are checked against the CRM's field list too
      if (!genericCrmWrite.plan(settings)) return { ok: true, message: answered };
      const fields = await genericCrmWrite.checkFields(settings, { ...context, settings, logger: quiet });
      return { ok: fields.ok, message: fields.ok ? `${answered}; ${fields.message}` : fields.message };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  },

  read: (stream: StreamName, cursor: ReadCursor, context: ReadContext<GenericCrmSettings>) => readConnection(stream, cursor, context),

  discover: (settings, context) => discoverFields(settings, context),

  write: genericCrmWrite,

  webhooks: genericCrmWebhooks,
});

/** Configuration problems (no token, an unknown stream, a bad expression) surface as errors of the read, named. */
async function* readConnection(stream: StreamName, cursor: ReadCursor, context: ReadContext<GenericCrmSettings>): AsyncGenerator<Page> {
  const where = `connection ${context.connectionId}, stream ${stream}`;
  if (!CORE_STREAMS.includes(stream as CoreStream)) {
    throw new Error(`${where}: generic-crm offers managers, clients and deals, not ${stream}`);
  }
  const name = stream as CoreStream;
  let inputs: Parameters<typeof readStream>[0];
  try {
    const session = openSession(context);
    const { source } = session;
    const plan = planStream(name, streamDefinition(source, name), source);
    const pagesOf = pagesStreamOf(source, name);
    // Another stream of this run reading the same pages gets them from disk instead of a second fetch.
    const enabled = enabledStreams(source);
    const later = (context.laterStreams ?? []).filter((s): s is CoreStream => enabled.includes(s as CoreStream));
    inputs = {
      plan,
      pages: pagesOf === name ? plan : planStream(pagesOf, streamDefinition(source, pagesOf), source),
      source,
      requester: session.requester(pagesOf),
      cursor,
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
