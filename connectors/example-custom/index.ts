import * as fs from 'fs';
import { CoreStream, defineConnector, Page, ReadContext, ReadCursor, RejectedInput, StreamName } from 'tracker-sync/connector';
import { readJsonLines } from './json-lines';
import { RecordError, toCanonical, TYPE_OF_STREAM } from './records';
import { ExampleCustomSettings } from './settings';

/**
 * The template for a new CRM: read the source, turn each record into a canonical one, hand pages to the
 * engine. Here the source is a JSON-lines file of deals, clients and managers; incremental by updated_at.
 * See connectors/README.md.
 */
export default defineConnector<ExampleCustomSettings>({
  name: 'example-custom',
  description: 'Deals, clients and managers from a JSON-lines file (template for custom connectors)',
  settingsClass: ExampleCustomSettings,

  streams: () => [
    { name: 'managers', incremental: false },
    { name: 'clients', incremental: true, sorted: false },
    { name: 'deals', incremental: true, sorted: false },
  ],

  async check(settings) {
    try {
      await fs.promises.access(settings.path, fs.constants.R_OK);
      return { ok: true, message: `${settings.path} is readable` };
    } catch (error) {
      return { ok: false, message: `${settings.path}: ${(error as Error).message}` };
    }
  },

  read: (stream, cursor, context) => readStream(stream, cursor, context),

  async discover(settings) {
    const fields = new Map<string, { stream: StreamName; name: string; example: unknown }>();
    for await (const line of readJsonLines(settings.path)) {
      const stream = (Object.keys(TYPE_OF_STREAM) as CoreStream[]).find((s) => TYPE_OF_STREAM[s] === line.value?.type);
      if (!stream) continue;
      for (const [name, example] of Object.entries(line.value!)) fields.set(`${stream}.${name}`, { stream, name, example });
      if (fields.size > 200) break;
    }
    return [...fields.values()];
  },
});

async function* readStream(stream: StreamName, cursor: ReadCursor, context: ReadContext<ExampleCustomSettings>): AsyncGenerator<Page> {
  if (!(stream in TYPE_OF_STREAM)) throw new Error(`connection ${context.connectionId}: example-custom has no stream ${stream}`);
  const { path, page_size: pageSize = 500 } = context.settings;
  let page = emptyPage();
  for await (const line of readJsonLines(path)) {
    if (context.signal?.aborted) return;
    const ref = `${path} line ${line.line}`;
    if (line.error) {
      page.rejected!.push({ id: '', field: '', reason: line.error, ref, excerpt: line.text.slice(0, 200) });
    } else if (line.value!.type === TYPE_OF_STREAM[stream as CoreStream]) {
      addRecord(page, stream as CoreStream, line.value!, ref, cursor);
    }
    if (page.records.length >= pageSize) {
      yield page;
      page = emptyPage();
    }
  }
  if (page.records.length > 0 || page.rejected!.length > 0) yield page;
}

function addRecord(page: Page, stream: CoreStream, raw: Record<string, unknown>, ref: string, cursor: ReadCursor): void {
  try {
    const record = toCanonical(stream, raw);
    const updated = 'updated_at' in record ? record.updated_at : null;
    // Incremental: only what changed inside the run's window; records without updated_at are always read.
    if (updated && ((cursor.since && updated < cursor.since) || updated > cursor.until)) return;
    page.records.push(record);
    page.refs!.push(ref);
  } catch (error) {
    if (!(error instanceof RecordError)) throw error;
    const rejected: RejectedInput = { id: String(raw.id ?? ''), field: error.field, reason: error.message, ref };
    page.rejected!.push({ ...rejected, excerpt: JSON.stringify(raw).slice(0, 200) });
  }
}

function emptyPage(): Page {
  return { records: [], refs: [], rejected: [] };
}
