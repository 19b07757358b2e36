import { Injectable } from '@nestjs/common';
import { badRequest, notFound } from '../../errors/sandbox-error';
import { SandboxDocumentStore, StoredDocument } from '../../storage/document-store';
import { parsePlainDate } from '../common/service-time';
import { PROXY_LEAD_KIND, ProxyLeadDoc } from './proxy-lead.types';

const PERIOD = /^(\d{4}-\d{2}-\d{2})-(\d{4}-\d{2}-\d{2})$/;

/** Proxy leads: read only. */
@Injectable()
export class ProxyLeadsService {
  constructor(private readonly store: SandboxDocumentStore) {}

  /** `period` `YYYY-MM-DD-YYYY-MM-DD` is required; both days are included (UTC days of creation_date). */
  async list(project: number, period: unknown): Promise<StoredDocument<ProxyLeadDoc>[]> {
    const { from, to } = readPeriod(period);
    return this.store.list<ProxyLeadDoc>(project, PROXY_LEAD_KIND, (lead) => {
      const day = lead.creation_date.slice(0, 10);
      return day >= from && day <= to;
    });
  }

  async get(project: number, id: string): Promise<StoredDocument<ProxyLeadDoc>> {
    const lead = await this.store.get<ProxyLeadDoc>(project, PROXY_LEAD_KIND, id);
    if (!lead) throw notFound(`proxy lead ${id}`);
    return lead;
  }
}

function readPeriod(period: unknown): { from: string; to: string } {
  if (period === undefined || period === '') throw badRequest('period', 'period: query parameter is required (YYYY-MM-DD-YYYY-MM-DD)');
  const match = typeof period === 'string' ? PERIOD.exec(period) : null;
  if (!match || !parsePlainDate(match[1]) || !parsePlainDate(match[2])) {
    throw badRequest('period', `period: must be YYYY-MM-DD-YYYY-MM-DD with real days, got ${JSON.stringify(period)}`);
  }
  if (match[1] > match[2]) throw badRequest('period', `period: start ${match[1]} is after end ${match[2]}`);
  return { from: match[1], to: match[2] };
}
