import { Injectable } from '@nestjs/common';
import { badRequest, notFound } from '../../errors/sandbox-error';
import { SandboxDocumentStore, StoredDocument } from '../../storage/document-store';
import { FieldReader } from '../common/field-reader';
import { formatPlainDateTime } from '../common/service-time';
import { AddedExpense, EXPENSE_KIND, ExpenseDoc, ExpenseListItem } from './channel.types';
import { ChannelsService } from './channels.service';

const DEFAULT_TIMEZONE = 'Europe/Moscow';

/** Expenses per channel and period: list, add, update, delete. */
@Injectable()
export class ExpensesService {
  constructor(
    private readonly store: SandboxDocumentStore,
    private readonly channels: ChannelsService,
  ) {}

  async list(project: number): Promise<ExpenseListItem[]> {
    const docs = await this.store.list<ExpenseDoc>(project, EXPENSE_KIND);
    return docs.map(toListItem);
  }

  /**
   * Rules: `source`, `from_date`, `to_date`, `marketing_cost` are required; `source` must be a
   * channel of the project; dates are real days `YYYY-MM-DD` with from ≤ to; the cost is a
   * non-negative integer; `timezone` (default Europe/Moscow) must be an IANA zone.
   */
  async add(project: number, body: unknown): Promise<AddedExpense> {
    const reader = FieldReader.ofBody(body);
    const source = reader.requiredString('source');
    const fromDate = reader.requiredPlainDate('from_date');
    const toDate = reader.requiredPlainDate('to_date');
    const cost = readCost(reader);
    const timezone = readTimezone(reader);
    if (fromDate > toDate) throw badRequest('from_date', `from_date: ${fromDate} is after to_date ${toDate}`);
    const channel = await this.channels.requireChannel(project, source, 'source');
    const now = formatPlainDateTime(new Date());
    const doc = await this.store.insert<ExpenseDoc>(project, EXPENSE_KIND, {
      source, name: channel.name, from_date: fromDate, to_date: toDate, timezone,
      marketing_cost: cost, comment: reader.nullableString('comment') ?? null, create_date: now, update_date: now,
    });
    return toAddedExpense(doc);
  }

  /** Rules: `id` and `marketing_cost` are required; the expense must exist; only the cost changes. */
  async update(project: number, body: unknown): Promise<void> {
    const reader = FieldReader.ofBody(body);
    const id = reader.requiredId('id');
    const cost = readCost(reader);
    const updated = await this.store.update<ExpenseDoc>(project, EXPENSE_KIND, id, {
      marketing_cost: cost, update_date: formatPlainDateTime(new Date()),
    });
    if (!updated) throw notFound(`expense ${id}`);
  }

  async delete(project: number, body: unknown): Promise<void> {
    const id = FieldReader.ofBody(body).requiredId('id');
    if (!(await this.store.remove(project, EXPENSE_KIND, id))) throw notFound(`expense ${id}`);
  }
}

function readCost(reader: FieldReader): number {
  const cost = reader.requiredInteger('marketing_cost');
  if (cost < 0) throw badRequest('marketing_cost', `marketing_cost: must not be negative, got ${cost}`);
  return cost;
}

function readTimezone(reader: FieldReader): string {
  const timezone = reader.optionalString('timezone') ?? DEFAULT_TIMEZONE;
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw badRequest('timezone', `timezone: unknown time zone "${timezone}"`);
  }
  return timezone;
}

function toListItem(doc: StoredDocument<ExpenseDoc>): ExpenseListItem {
  const { id, source, name, from_date, to_date, timezone, marketing_cost } = doc;
  return { id, source, name, from_date, to_date, timezone, marketing_cost };
}

/** The add answer names the same facts differently (marker, title, cost, ISO period bounds). */
function toAddedExpense(doc: StoredDocument<ExpenseDoc>): AddedExpense {
  return {
    id: doc.id,
    date_from: `${doc.from_date}T00:00:00.000Z`,
    date_to: `${doc.to_date}T00:00:00.000Z`,
    timezone: doc.timezone,
    marker: doc.source,
    title: doc.name,
    comment: doc.comment,
    cost: doc.marketing_cost,
    create_date: doc.create_date,
    update_date: doc.update_date,
  };
}
