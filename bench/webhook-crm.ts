import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A small amoCRM for the webhook benchmark (the shapes of its API v4: /api/v4/users, /api/v4/contacts,
 * /api/v4/leads with `filter[updated_at][from]` and `order[updated_at]=asc`, 204 for an empty list). Each lead
 * carries the visit number in its `tracker` field; `change` points a lead at another visit, as a manager would.
 */
export interface BenchCrm {
  url: string;
  token: string;
  leadIds(): number[];
  change(leadId: number, visitId: string): void;
  close(): Promise<void>;
}

export async function startBenchCrm(leads: number, firstVisit: number): Promise<BenchCrm> {
  const token = 'bench-amo-token';
  const now = () => Math.floor(Date.now() / 1000);
  const state = Array.from({ length: leads }, (_, i) => ({
    id: 9001 + i, name: `Bench lead ${i + 1}`, price: 1000 + i, responsible_user_id: 1, status_id: 142, pipeline_id: 1,
    created_at: now() - 3600, updated_at: now() - 3600, closed_at: null,
    custom_fields_values: [{ field_id: 401, field_name: 'tracker', field_code: null, field_type: 'text', values: [{ value: String(firstVisit + i) }] }],
    _embedded: { tags: [], contacts: [] as { id: number; is_main: boolean }[] },
  }));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://crm');
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, body === undefined ? {} : { 'Content-Type': 'application/hal+json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { title: 'Unauthorized', status: 401 });
    if (url.pathname === '/api/v4/users') return send(200, { _embedded: { users: [{ id: 1, name: 'Bench manager', email: 'manager@example.com' }] } });
    if (url.pathname === '/api/v4/contacts') return send(204);
    if (url.pathname === '/api/v4/leads') {
      const from = Number(url.searchParams.get('filter[updated_at][from]') ?? 0);
      const rows = state.filter((lead) => lead.updated_at >= from).sort((a, b) => a.updated_at - b.updated_at);
      return rows.length ? send(200, { _page: 1, _links: { self: { href: req.url } }, _embedded: { leads: rows } }) : send(204);
    }
    send(404, { title: 'Not found', status: 404 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    leadIds: () => state.map((lead) => lead.id),
    change(leadId, visitId) {
      const lead = state.find((l) => l.id === leadId)!;
      lead.custom_fields_values[0].values = [{ value: visitId }];
      lead.updated_at = now();
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
