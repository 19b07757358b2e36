import { Injectable } from '@nestjs/common';
import { SandboxDocumentStore } from '../../storage/document-store';
import { FieldReader } from '../common/field-reader';
import { matchesAll, readPeriod, readTripleFilters, sortRecords, withinPeriod } from '../common/record-query';
import { formatPlainDate } from '../common/service-time';
import { BILLING_FIELDS, BILLING_KIND, BillingTransaction } from './billing.types';

export interface BillingSelection {
  transactions: BillingTransaction[];
  period: { from: Date; to: Date };
}

/** Billing transactions of the project: `period` {from, to} required, standard filters optional. */
@Injectable()
export class BillingService {
  constructor(private readonly store: SandboxDocumentStore) {}

  async select(project: number, body: unknown): Promise<BillingSelection> {
    const reader = FieldReader.ofListBody(body);
    const period = readPeriod(reader);
    const filters = readTripleFilters(reader, 'filters', { fields: BILLING_FIELDS });
    const docs = await this.store.list<BillingTransaction>(project, BILLING_KIND);
    const selected = docs.filter((doc) => withinPeriod(doc.date, period) && matchesAll(doc, filters));
    return { transactions: sortRecords(selected, 'date', 'asc').map(toTransaction), period };
  }
}

/** The export's file name names the period: `billing-transactions-<from>-<to>.xlsx`. */
export function exportFileName(period: { from: Date; to: Date }): string {
  return `billing-transactions-${formatPlainDate(period.from)}-${formatPlainDate(period.to)}.xlsx`;
}

function toTransaction(doc: BillingTransaction): BillingTransaction {
  const { date, type, system_name, display_name, project_id, sum, balance, virtual_balance } = doc;
  return { date, type, system_name, display_name, project_id, sum, balance, virtual_balance };
}
