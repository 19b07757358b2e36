/**
 * What products and stage history cost in requests: each preset's deals read from its fixture CRM
 * (test/fixtures/crm/, answering as the vendor documents, pages of the documented maximum) holding N generated
 * deals with two products and two stage changes each, once as the preset ships and once with
 * `products: false, history: false`. The difference, per 1,000 deals, is what the README's preset table states.
 * Counts, not times: the same on any machine.
 * Usage: npm run bench:enrichment [-- --deals 1000]
 */
import '../src/connectors/serve-contract'; // first: the connector imports tracker-sync/connector
import connector from '../connectors/generic-crm';
import { toSettingsInstance } from '../src/connectors/settings-validation';
import * as amocrm from '../test/fixtures/crm/amocrm';
import * as bitrix24 from '../test/fixtures/crm/bitrix24';
import { FixtureRequest, reportSpecViolations, startCrmServer } from '../test/fixtures/crm/crm-fixture-server';
import type { WritableCrm, WritableCrmOptions } from '../test/fixtures/crm/crm-writes';
import * as hubspot from '../test/fixtures/crm/hubspot';
import * as pipedrive from '../test/fixtures/crm/pipedrive';

const args = process.argv.slice(2);
const at = args.indexOf('--deals');
const DEALS = at >= 0 ? Number(args[at + 1]) : 1000;

interface Preset {
  name: string;
  createCrm(options: WritableCrmOptions): WritableCrm;
  settings(url: string): Record<string, unknown>;
  /** the documented maximum page of the deals list */
  pageSize: number;
}

const PRESETS: Preset[] = [
  { name: 'amocrm', createCrm: amocrm.createCrm, settings: amocrm.settings, pageSize: 250 },
  { name: 'bitrix24', createCrm: bitrix24.createCrm, settings: bitrix24.settings, pageSize: 50 },
  { name: 'pipedrive', createCrm: pipedrive.createCrm, settings: pipedrive.settings, pageSize: 500 },
  { name: 'hubspot', createCrm: hubspot.createCrm, settings: hubspot.settings, pageSize: 100 },
];

/** Requests of one full read of the deals stream, by "METHOD path" (the secret path segment of Bitrix24 cut). */
async function countRequests(preset: Preset, extra: Record<string, unknown>): Promise<{ total: number; byPath: Map<string, number>; deals: number }> {
  const crm = preset.createCrm({ moreDeals: DEALS, pageSize: preset.pageSize, richDeals: true });
  const server = await startCrmServer(crm.handler);
  try {
    const settings = toSettingsInstance(connector.settingsClass, { ...preset.settings(server.url), ...extra });
    // only a refused enrichment is worth showing here
    const quiet = { log: () => {}, warn: (m: string) => (m.includes(' left out: ') ? console.warn(m) : undefined) };
    let deals = 0;
    const pages = connector.read('deals', { since: null, until: new Date('2100-01-01Z') }, {
      connectionId: `bench-${preset.name}`, settings, state: null, logger: quiet,
    });
    for await (const page of pages) deals += page.records.length;
    // HubSpot and Pipedrive answered as their OpenAPI documents say (throws naming the violations otherwise)
    reportSpecViolations();
    const byPath = new Map<string, number>();
    for (const request of server.requests) {
      const key = describe(request);
      byPath.set(key, (byPath.get(key) ?? 0) + 1);
    }
    return { total: server.requests.length, byPath, deals };
  } finally {
    await server.close();
  }
}

function describe(request: FixtureRequest): string {
  const path = request.path.replace(/^\/rest\/\d+\/[^/]+\//, '').replace(/\/\d+(\/|$)/, '/{id}$1');
  const commands = request.body?.cmd ? ` (${[...new Set(Object.values(request.body.cmd as Record<string, string>).map((c) => c.split('?')[0]))].join(', ')})` : '';
  return `${request.method} ${path}${commands}`;
}

async function main(): Promise<void> {
  const rows: { preset: string; deals: number; pages: number; products: number; history: number; both: number }[] = [];
  for (const preset of PRESETS) {
    const bare = await countRequests(preset, { products: false, history: false });
    const products = await countRequests(preset, { history: false });
    const history = await countRequests(preset, { products: false });
    const both = await countRequests(preset, {});
    const per1000 = (n: number) => Math.round((n * 1000) / both.deals * 10) / 10;
    rows.push({
      preset: preset.name,
      deals: both.deals,
      pages: Math.ceil(both.deals / preset.pageSize),
      products: per1000(products.total - bare.total),
      history: per1000(history.total - bare.total),
      both: per1000(both.total - bare.total),
    });
    console.log(`\n${preset.name}: ${both.deals} deals, requests of a full read with products and history:`);
    for (const [path, count] of [...both.byPath].sort()) console.log(`  ${String(count).padStart(6)}  ${path}`);
  }
  console.log(`\nExtra requests per 1,000 deals (each generated deal: 2 products, 2 stage changes; pages of the documented maximum)\n`);
  console.log('| preset | deals read | pages of deals | products | history | both |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.preset} | ${r.deals} | ${r.pages} | ${r.products} | ${r.history} | ${r.both} |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
