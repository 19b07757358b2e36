import connector from '../../../connectors/generic-crm';
import { checkFlows } from '../../../src/engine/outbound/flows/flow-checks';
import { writeBackFlow } from '../../../src/engine/outbound/flows/write-back/write-back.flow';
import { writeDeals } from '../../support/write-back-pass';
import { GenericCrmSettings } from '../../../connectors/generic-crm/settings';
import type { DealWrite, WriteOutcome } from '../../../src/connectors/connector-definition';
import { toSettingsInstance } from '../../../src/connectors/settings-validation';
import * as amocrm from '../../fixtures/crm/amocrm';
import * as bitrix24 from '../../fixtures/crm/bitrix24';
import { CrmServer, FixtureRequest, startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import type { WritableCrm } from '../../fixtures/crm/crm-writes';
import * as hubspot from '../../fixtures/crm/hubspot';
import * as pipedrive from '../../fixtures/crm/pipedrive';

/**
 * The presets' write-back requests, each as its CRM documents it: fields named by name resolve through the
 * preset's field list (at `check` too), and the update request's method, path and body are exactly the CRM's.
 */

interface PresetWrite {
  preset: string;
  fixture: { createCrm(): WritableCrm; settings(url: string): Record<string, unknown> };
  fields: Record<string, string | number>;
  /** `check`'s resolution of the fields */
  resolved: string;
  /** two deals the CRM has; the second's UTM campaign is empty (an organic visit) */
  deals: [string, string];
  /** the CRM's words when it has no such deal */
  refusal: RegExp;
  /** the update request(s) the two deals make */
  requests(deals: [string, string]): { method: string; path: string; body: unknown }[];
}

const CHANNEL = 'Реклама / Яндекс Директ / Поиск';
const quiet = { log: () => {}, warn: () => {} };

const cases: PresetWrite[] = [
  {
    preset: 'amocrm', fixture: amocrm, deals: ['7001', '7003'],
    refusal: /Entity not found/,
    fields: { channel: 'источник', utm_campaign: 404 },
    resolved: 'channel → 402, utm_campaign → 404',
    requests: ([a, b]) => [{
      method: 'PATCH', path: '/api/v4/leads',
      body: [
        { id: Number(a), custom_fields_values: [{ field_id: 402, values: [{ value: CHANNEL }] }, { field_id: 404, values: [{ value: 'poisk_divany_msk' }] }] },
        { id: Number(b), custom_fields_values: [{ field_id: 402, values: [{ value: 'Органика / Google' }] }, { field_id: 404, values: null }] },
      ],
    }],
  },
  {
    preset: 'bitrix24', fixture: bitrix24, deals: ['201', '203'],
    refusal: /^Element not found$/,
    fields: { channel: 'Канал', utm_campaign: 'UF_CRM_1700000103' },
    resolved: 'channel → UF_CRM_1700000101, utm_campaign → UF_CRM_1700000103',
    requests: ([a, b]) => [{
      method: 'POST', path: `/rest/1/${bitrix24.TOKEN}/batch.json`,
      body: {
        halt: 0,
        cmd: {
          [`d${a}`]: `crm.item.update?entityTypeId=2&id=${a}&useOriginalUfNames=Y&fields[UF_CRM_1700000101]=${encodeURIComponent(CHANNEL)}&fields[UF_CRM_1700000103]=poisk_divany_msk`,
          [`d${b}`]: `crm.item.update?entityTypeId=2&id=${b}&useOriginalUfNames=Y&fields[UF_CRM_1700000101]=${encodeURIComponent('Органика / Google')}&fields[UF_CRM_1700000103]=`,
        },
      },
    }],
  },
  {
    preset: 'pipedrive', fixture: pipedrive, deals: ['1001', '1003'],
    refusal: /Deal not found/,
    fields: { channel: 'LEAD SOURCE', utm_campaign: pipedrive.FIELD_KEYS.utmCampaign },
    resolved: `channel → ${pipedrive.FIELD_KEYS.leadSource}, utm_campaign → ${pipedrive.FIELD_KEYS.utmCampaign}`,
    requests: ([a, b]) => [
      { method: 'PATCH', path: `/api/v2/deals/${a}`, body: { custom_fields: { [pipedrive.FIELD_KEYS.leadSource]: CHANNEL, [pipedrive.FIELD_KEYS.utmCampaign]: 'poisk_divany_msk' } } },
      { method: 'PATCH', path: `/api/v2/deals/${b}`, body: { custom_fields: { [pipedrive.FIELD_KEYS.leadSource]: 'Органика / Google', [pipedrive.FIELD_KEYS.utmCampaign]: '' } } },
    ],
  },
  {
    preset: 'hubspot', fixture: hubspot, deals: ['801', '803'],
    refusal: /^Could not get some DEAL objects, they may be deleted or not exist/,
    fields: { channel: 'Lead channel', utm_campaign: 'utm_campaign' },
    resolved: 'channel → lead_channel, utm_campaign → utm_campaign',
    requests: ([a, b]) => [{
      method: 'POST', path: '/crm/v3/objects/deals/batch/update',
      body: {
        inputs: [
          { id: a, properties: { lead_channel: CHANNEL, utm_campaign: 'poisk_divany_msk' } },
          { id: b, properties: { lead_channel: 'Органика / Google', utm_campaign: '' } },
        ],
      },
    }],
  },
];

async function collect(iterable: AsyncIterable<WriteOutcome[]>): Promise<WriteOutcome[]> {
  const outcomes: WriteOutcome[] = [];
  for await (const batch of iterable) outcomes.push(...batch);
  return outcomes;
}

describe.each(cases)('write-back request of preset $preset', (c) => {
  let crm: WritableCrm;
  let server: CrmServer;
  const settingsWith = (fields: Record<string, string | number>) =>
    toSettingsInstance(GenericCrmSettings, { ...c.fixture.settings(server.url), retry: { max_attempts: 1 }, write_back: { fields } });
  const context = (settings: GenericCrmSettings) => ({ connectionId: `wb-${c.preset}`, settings, logger: quiet });
  const isUpdate = (request: FixtureRequest) => crm.updatedIds(request).length > 0;

  beforeAll(async () => {
    crm = c.fixture.createCrm();
    server = await startCrmServer(crm.handler);
  });
  afterAll(async () => {
    await server.close();
  });

  it('check resolves the configured fields through the preset\'s field list (names in any case, or keys)', async () => {
    const settings = settingsWith(c.fields);
    expect(await checkFlows(connector, settings, context(settings))).toEqual({ ok: true, message: expect.stringContaining(`write_back: ${c.resolved} (found in the CRM's field list)`) });
  });

  it('check names the key of a field the CRM does not have', async () => {
    const settings = settingsWith({ ...c.fields, utm_term: 'Ключевое слово' });
    const answer = await checkFlows(connector, settings, context(settings));
    expect(answer.ok).toBe(false);
    expect(answer.message).toContain('write_back.fields.utm_term: the CRM has no deal field "Ключевое слово"');
  });

  it('writes the deals with the CRM\'s own update request, and the CRM holds the values', async () => {
    const settings = settingsWith(c.fields);
    const [a, b] = c.deals;
    const deals: DealWrite[] = [
      { id: a, values: { channel: CHANNEL, utm_campaign: 'poisk_divany_msk' } },
      { id: b, values: { channel: 'Органика / Google', utm_campaign: '' } },
    ];
    const from = server.requests.length;
    expect(await collect(writeDeals(connector, deals, context(settings)))).toEqual([{ id: a, status: 'written' }, { id: b, status: 'written' }]);
    const sent = server.requests.slice(from).filter(isUpdate).map(({ method, path, body }) => ({ method, path, body }));
    expect(sent).toEqual(c.requests(c.deals));
    const [channelKey, campaignKey] = c.resolved.split(', ').map((pair) => pair.split(' → ')[1]);
    expect([crm.fieldsOf(a)[channelKey], crm.fieldsOf(a)[campaignKey]]).toEqual([CHANNEL, 'poisk_divany_msk']);
    expect([crm.fieldsOf(b)[channelKey], crm.fieldsOf(b)[campaignKey] ?? '']).toEqual(['Органика / Google', '']);
  });

  it('a deal the CRM does not have is refused with the CRM\'s reason; the other one is written', async () => {
    const settings = settingsWith(c.fields);
    const deals: DealWrite[] = [{ id: c.deals[0], values: { channel: CHANNEL, utm_campaign: 'x' } }, { id: '999999', values: { channel: CHANNEL, utm_campaign: 'x' } }];
    const outcomes = await collect(writeDeals(connector, deals, context(settings)));
    expect(outcomes.find((o) => o.id === '999999')).toEqual({ id: '999999', status: 'rejected', reason: expect.stringMatching(c.refusal) });
    // amoCRM refuses the whole request when one lead is wrong: each half goes again, and the good lead is written
    expect(outcomes.find((o) => o.id === c.deals[0])?.status).toBe('written');
    const channelKey = c.resolved.split(', ')[0].split(' → ')[1];
    expect(crm.fieldsOf(c.deals[0])[channelKey]).toBe(CHANNEL);
  });
});

describe('write-back into Pipedrive: an archived deal takes no update (changelog of 2025-07-15)', () => {
  it('its refusal is that deal\'s rejection with Pipedrive\'s reason; the pass goes on and writes the others', async () => {
    const crm = pipedrive.createCrm();
    const server = await startCrmServer(crm.handler);
    try {
      crm.archiveDeal('1001');
      const settings = toSettingsInstance(GenericCrmSettings, { ...pipedrive.settings(server.url), write_back: { fields: { channel: 'Lead source' } } });
      const deals: DealWrite[] = [{ id: '1001', values: { channel: CHANNEL } }, { id: '1003', values: { channel: CHANNEL } }];
      const outcomes = await collect(writeDeals(connector, deals, { connectionId: 'wb-archived', settings, logger: quiet }));
      expect(outcomes).toEqual([
        { id: '1001', status: 'rejected', reason: 'HTTP 403: Archived deal cannot be updated. Unarchive the deal first.' },
        { id: '1003', status: 'written' },
      ]);
      expect(crm.fieldsOf('1001')[pipedrive.FIELD_KEYS.leadSource]).toBe('Facebook');
    } finally {
      await server.close();
    }
  });
});
