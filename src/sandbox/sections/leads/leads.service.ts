import { Injectable } from '@nestjs/common';
import { notFound } from '../../errors/sandbox-error';
import { SandboxDocumentStore, StoredDocument } from '../../storage/document-store';
import { FieldReader } from '../common/field-reader';
import { matchesAll, pageOf, readObjectFilters, readPaging, readPeriod, sortRecords, withinPeriod } from '../common/record-query';
import { readLeadPatch, readNewLead } from './lead-input';
import { LEAD_FILTER_FIELDS, LEAD_KIND, LEAD_SORT_FIELDS, LeadDoc } from './lead.types';

const LEAD_OPERATORS = ['=', '!=', '<=', '>=', '>', '<', 'like', 'like%', 'in'] as const;

/** Leads without a CRM: list, create, update. */
@Injectable()
export class LeadsService {
  constructor(private readonly store: SandboxDocumentStore) {}

  /**
   * `period` {from, to} (required) bounds `creation_date`; `filters` [{field, operator, value}]
   * on the listed fields; `sort_field` (required) and `sort_order`; `limit`, `offset`;
   * `total` counts the selected leads before paging.
   */
  async list(project: number, body: unknown): Promise<{ leads: StoredDocument<LeadDoc>[]; total: number }> {
    const reader = FieldReader.ofListBody(body);
    const period = readPeriod(reader);
    const filters = readObjectFilters(reader, 'filters', { fields: LEAD_FILTER_FIELDS, operators: LEAD_OPERATORS });
    const sortField = reader.requiredEnum('sort_field', LEAD_SORT_FIELDS);
    const sortOrder = reader.optionalEnum('sort_order', ['asc', 'desc'] as const) ?? 'asc';
    const paging = readPaging(reader);
    const leads = (await this.store.list<LeadDoc>(project, LEAD_KIND))
      .filter((lead) => withinPeriod(lead.creation_date, period) && matchesAll(lead, filters));
    return { leads: pageOf(sortRecords(leads, sortField, sortOrder), paging).map(toLead), total: leads.length };
  }

  async create(project: number, body: unknown): Promise<string> {
    const lead = readNewLead(FieldReader.ofBody(body));
    return (await this.store.insert(project, LEAD_KIND, lead)).id;
  }

  /** Only the fields sent change; the others keep their stored values. */
  async update(project: number, body: unknown): Promise<void> {
    const reader = FieldReader.ofBody(body);
    const id = reader.requiredId('id');
    const patch = readLeadPatch(reader);
    if (!(await this.store.update<LeadDoc>(project, LEAD_KIND, id, patch))) throw notFound(`lead ${id}`);
  }
}

/** Lead in the field order of the specification. */
function toLead(lead: StoredDocument<LeadDoc>): StoredDocument<LeadDoc> {
  return {
    id: lead.id, title: lead.title, creation_date: lead.creation_date, paid_date: lead.paid_date, status: lead.status,
    price: lead.price, name: lead.name, phone: lead.phone, email: lead.email, source: lead.source, text: lead.text,
  };
}
