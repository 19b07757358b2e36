import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { orderExternalUrl } from '../../orders/order-view';
import { SandboxOrderStatusEntity } from '../../storage/order-status.entity';
import { SandboxOrderEntity } from '../../storage/order.entity';
import { InjectSandboxDataSource } from '../../storage/sandbox-data-source';
import { SandboxVisitEntity } from '../../storage/visit.entity';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A numeric id as the integer the e-mail shapes use; other ids stay as they are. */
const asInteger = (id: string | null | undefined): number | string | null =>
  id === null || id === undefined || id === '' ? null : /^\d+$/.test(id) ? Number(id) : id;

/**
 * The visit and order attached to a tracked e-mail by `extend`, in the e-mail's own shapes
 * (narrower than the visit list and order list records). Read from the core's tables.
 */
@Injectable()
export class EmailRelations {
  constructor(@InjectSandboxDataSource() private readonly dataSource: DataSource) {}

  async visit(project: number, visitId: string): Promise<Json | null> {
    if (!visitId) return null;
    const row = await this.dataSource.getRepository(SandboxVisitEntity).findOneBy({ projectId: project, id: visitId });
    if (!row) return null;
    const visit = JSON.parse(row.data) as Json;
    const source = (visit.source ?? {}) as Json;
    return {
      id: asInteger(row.id), first_id: asInteger(row.firstVisitId), date: visit.date ?? row.date,
      referrer: source.referrer ?? '', host: visit.host ?? '', landing_page: visit.landing_page ?? '',
      agent: visit.device?.agent ?? '', ip: visit.ip ?? '',
      google_client_id: visit.google_client_id ?? null, metrics_client_id: visit.metrics_client_id ?? null,
      source: {
        system_name: source.system_name ?? '', display_name: source.display_name ?? '', icon_url: source.icon_url ?? '',
        utm_source: source.utm_source ?? null, utm_medium: source.utm_medium ?? null, utm_campaign: source.utm_campaign ?? null,
        utm_term: source.utm_term ?? null, utm_content: source.utm_content ?? null, openstat: source.openstat ?? null,
        referrer: source.referrer ?? '',
      },
    };
  }

  async order(project: number, orderId: string): Promise<Json | null> {
    if (!orderId) return null;
    const row = await this.dataSource.getRepository(SandboxOrderEntity).findOneBy({ projectId: project, id: orderId });
    if (!row) return null;
    const status = await this.dataSource.getRepository(SandboxOrderStatusEntity)
      .findOneBy({ projectId: project, id: row.statusId });
    const fields = JSON.parse(row.fields || '{}') as Json;
    return {
      id: asInteger(row.id), url: orderExternalUrl(row), source_type: 'api',
      creation_date: row.creationDate, update_date: row.updateDate, revenue: row.revenue, cost: row.cost,
      client_id: asInteger(row.clientId), visit_id: asInteger(row.tracker), page: null,
      status: { id: asInteger(row.statusId), type: status?.type ?? 'unused', name: status?.name ?? row.statusId },
      custom_fields: { ...fields, tracker: asInteger(row.tracker), status_name: status?.name ?? row.statusId },
    };
  }
}
