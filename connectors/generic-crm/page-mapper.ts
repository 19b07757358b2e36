import type { Deal } from 'tracker-sync/connector';
import type { Page, ReadCursor, RejectedInput, SkippedField } from 'tracker-sync/connector';
import { Requester } from './http/requester';
import { excerpt } from './http/source-error';
import { Reslicer } from './pagination/reslicer';
import { BuildResult, buildRecord } from './records/canonical-builder';
import { CustomFieldReader } from './records/custom-fields';
import { EnrichSession, enrichPage } from './records/enricher';
import { FieldError, toId, toInstant } from './records/field-values';
import { readFields } from './records/mapping';
import { getPath } from './records/paths';
import { ResolvedSource } from './source-config';
import { StreamPlan } from './stream-plan';

/** One page of raw source records → canonical records and rejected inputs. */

export interface PageInputs {
  /** the stream read */
  plan: StreamPlan;
  /** the stream whose pages these are: `plan`, or the stream its `from` names */
  pages: StreamPlan;
  source: ResolvedSource;
  requester: Requester;
  cursor: ReadCursor;
  redact(text: string): string;
  /** this read's enrichments: switched off, refused (warned once) */
  enrich: EnrichSession;
  /** a preview or check reads this many records: the rest of a page is neither enriched nor mapped */
  limit?: number;
}

export interface ReadStats {
  pages: number;
  read: number;
  rejected: number;
  withoutVisit: number;
  outsideWindow: number;
  /** the pages came from the spill another stream of the run wrote */
  replayed: boolean;
  /** deals per stage as the CRM has it, before status_map (the status page's deals per stage) */
  statuses?: Map<string, number>;
}

interface Owner {
  id: string;
  updated_at: Date | null;
}

export async function mapPage(
  inputs: PageInputs,
  raw: Record<string, unknown>[],
  custom: CustomFieldReader | null,
  stats: ReadStats,
  reslice: Reslicer,
): Promise<Page> {
  const { plan, requester, cursor } = inputs;
  const filtered = plan.filter ? await filterRecords(raw, plan.filter) : raw;
  // `check` asks for one deal: its sub-requests are for that deal, not for the page's 250
  const selected = inputs.limit === undefined ? filtered : filtered.slice(0, Math.max(0, inputs.limit - stats.read));
  for (const enrich of plan.definition.enrich ?? []) {
    await enrichPage(selected, enrich, requester, { visit_field: inputs.source.visit_field }, inputs.enrich);
  }
  const page: Page & { rejected: RejectedInput[]; skipped_fields: SkippedField[] } = { records: [], refs: [], rejected: [], skipped_fields: [] };
  for (const [index, item] of selected.entries()) {
    const ref = `${plan.stream} page ${stats.pages} item ${index + 1}`;
    const result = await mapRecord(plan, item, custom, await inputs.enrich.leftOutOf(item, async () => `${recordName(plan)} ${await idOf(plan, item)}`));
    if (result.rejected) {
      const rawText = inputs.redact(excerpt(JSON.stringify(item)));
      page.rejected.push({ ...result.rejected, ref, excerpt: rawText });
      stats.rejected++;
      continue;
    }
    const record = result.record as Deal;
    if (!inWindow(record, cursor, plan.incremental)) {
      stats.outsideWindow++;
      continue;
    }
    if (reslice.isDuplicate(record)) continue;
    if (plan.stream === 'deals' && !record.visit_id) stats.withoutVisit++;
    if (result.stage !== undefined && stats.statuses) stats.statuses.set(result.stage, (stats.statuses.get(result.stage) ?? 0) + 1);
    page.records.push(record);
    page.refs!.push(ref);
    for (const left of result.skipped ?? []) page.skipped_fields.push({ id: record.id, ...left, ref });
    stats.read++;
  }
  if (!page.skipped_fields.length) delete (page as Page).skipped_fields;
  return page;
}

/**
 * A `from` stream: the records embedded in each record of the other stream's page (`records` is their path,
 * an object or a list). They carry their owner's updated_at, so this stream's window and cursor follow the
 * other stream's. Owners outside the window, or whose id or updated_at cannot be read, bring nothing (their
 * own stream rejects them). A record embedded twice in one page is read once: the last copy.
 */
export async function mapEmbedded(
  inputs: PageInputs,
  raw: Record<string, unknown>[],
  custom: CustomFieldReader | null,
  stats: ReadStats,
  reslice: Reslicer,
): Promise<Page> {
  const { plan, pages: owners, cursor } = inputs;
  const found: { item: Record<string, unknown>; owner: Owner }[] = [];
  for (const ownerItem of owners.filter ? await filterRecords(raw, owners.filter) : raw) {
    const owner = await ownerOf(owners, ownerItem);
    if (!owner) continue;
    if (!inWindow(owner, cursor, owners.incremental)) {
      stats.outsideWindow++;
      continue;
    }
    if (reslice.isDuplicate(owner)) continue;
    for (const item of asRecords(getPath(ownerItem, plan.definition.records ?? ''))) {
      if (!plan.filter || (await plan.filter(item))) found.push({ item, owner });
    }
  }
  for (const enrich of plan.definition.enrich ?? []) {
    await enrichPage(found.map((f) => f.item), enrich, inputs.requester, { visit_field: inputs.source.visit_field }, inputs.enrich);
  }
  const kept = new Map<string, { record: Page['records'][number]; ref: string; skipped?: { field: string; reason: string }[] }>();
  const rejected: RejectedInput[] = [];
  for (const { item, owner } of found) {
    const ref = `${plan.stream} in ${owners.stream} ${owner.id} (page ${stats.pages})`;
    const result = await mapRecord(plan, item, custom, await inputs.enrich.leftOutOf(item, async () => `${recordName(plan)} ${await idOf(plan, item)}`));
    if (result.rejected) {
      rejected.push({ ...result.rejected, ref, excerpt: inputs.redact(excerpt(JSON.stringify(item))) });
      stats.rejected++;
      continue;
    }
    const record = Object.assign(result.record, { updated_at: owner.updated_at });
    kept.delete(record.id); // the last copy wins, in its position (times stay in the owners' order)
    kept.set(record.id, { record, ref, skipped: result.skipped });
  }
  stats.read += kept.size;
  const copies = [...kept.values()];
  const skipped = copies.flatMap((k) => (k.skipped ?? []).map((left) => ({ id: k.record.id, ...left, ref: k.ref })));
  return { records: copies.map((k) => k.record), refs: copies.map((k) => k.ref), rejected, ...(skipped.length ? { skipped_fields: skipped } : {}) };
}

async function ownerOf(plan: StreamPlan, item: Record<string, unknown>): Promise<Owner | null> {
  try {
    const values = await readFields(plan.fields.filter((f) => f.name === 'id' || f.name === 'updated_at'), item);
    const id = toId(values.id, 'id');
    return id === null ? null : { id, updated_at: toInstant(values.updated_at, 'updated_at', plan.build.dateSpec('updated_at')) };
  } catch (error) {
    if (error instanceof FieldError) return null;
    throw error;
  }
}

function asRecords(value: unknown): Record<string, unknown>[] {
  const items = Array.isArray(value) ? value : [value];
  return items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item));
}

/**
 * `stage`: a deal's status as the CRM has it, before status_map (the status page counts deals per stage).
 * `leftOut`: mapping fields of a feature switched off or refused (products, history) are not read.
 */
async function mapRecord(plan: StreamPlan, item: Record<string, unknown>, custom: CustomFieldReader | null, leftOut: ReadonlySet<string>): Promise<BuildResult & { stage?: string }> {
  const fields = leftOut.size ? plan.fields.filter((field) => !leftOut.has(field.name)) : plan.fields;
  try {
    const values = await readFields(fields, item);
    const result = buildRecord(plan.stream, values, custom?.read(item) ?? [], plan.build);
    return plan.stream === 'deals' && values.status !== undefined && values.status !== null ? { ...result, stage: String(values.status) } : result;
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return { rejected: { id: await idOf(plan, item), field: error.field, reason: error.message } };
  }
}

/** 'deal', 'client', 'manager' (or the stream's own name), for messages about one record */
function recordName(plan: StreamPlan): string {
  return ({ deals: 'deal', clients: 'client', managers: 'manager' } as Record<string, string>)[plan.stream] ?? plan.stream;
}

async function idOf(plan: StreamPlan, item: Record<string, unknown>): Promise<string> {
  try {
    const id = await plan.fields.find((field) => field.name === 'id')?.read(item);
    return id === undefined || id === null ? '' : String(id);
  } catch {
    return '';
  }
}

async function filterRecords(
  records: Record<string, unknown>[],
  filter: (record: unknown) => Promise<unknown>,
): Promise<Record<string, unknown>[]> {
  const kept: Record<string, unknown>[] = [];
  for (const record of records) if (await filter(record)) kept.push(record);
  return kept;
}

/** Sources without a server-side filter (Pipedrive) are filtered here; the signpost holds later changes back. */
function inWindow(record: { updated_at?: Date | null }, cursor: ReadCursor, incremental: boolean): boolean {
  if (!incremental || !record.updated_at) return true;
  const time = record.updated_at.getTime();
  return (!cursor.since || time >= cursor.since.getTime()) && time <= cursor.until.getTime();
}

