import 'reflect-metadata';
import genericCrm from '../../../connectors/generic-crm';
import { GenericCrmSettings } from '../../../connectors/generic-crm/settings';
import { plainToInstance } from 'class-transformer';
import type { DealStage } from '../../../src/connectors/canonical';
import { mergeStages } from '../../../src/engine/project-statuses';
import * as amo from '../../fixtures/crm/amocrm';
import * as bitrix from '../../fixtures/crm/bitrix24';
import * as hubspot from '../../fixtures/crm/hubspot';
import * as pipedrive from '../../fixtures/crm/pipedrive';
import { FixtureHandler, slice, startCrmServer, withSpec } from '../../fixtures/crm/crm-fixture-server';

/**
 * Each preset's deal stages (read as its `discover:` describes pipelines and stages) against the listing as its CRM
 * documents it (checked 2026-11-27): amoCRM GET /api/v4/leads/pipelines (the amoCRM fixture), Bitrix24
 * crm.category.list and crm.status.list, Pipedrive GET /api/v2/pipelines and /api/v2/stages, HubSpot
 * GET /crm/v3/pipelines/deals. Each stage id is the value the preset's deals carry in `status`.
 */
async function stagesOf(settings: object, handler: FixtureHandler): Promise<DealStage[]> {
  const server = await startCrmServer(handler);
  try {
    const typed = plainToInstance(GenericCrmSettings, (settings as (url: string) => object)(server.url));
    const { status_map: _map, ...withoutMap } = typed as GenericCrmSettings;
    return await genericCrm.stages!(withoutMap as GenericCrmSettings, { connectionId: 'c', settings: withoutMap as GenericCrmSettings, logger: { log: () => {}, warn: () => {} } });
  } finally {
    await server.close();
  }
}

describe('generic CRM: the presets\' deal stages (statuses: register)', () => {
  it('amoCRM: every pipeline\'s statuses, 142 won and 143 lost kept once', async () => {
    const stages = await stagesOf(amo.settings, amo.handler);
    expect(stages.map((s) => s.id)).toEqual(['55500', '55501', '55502', '142', '143', '56601']);
    expect(stages.find((s) => s.id === '142')).toEqual({ id: '142', name: 'Успешно реализовано', type: 'paid' });
    expect(stages.find((s) => s.id === '143')?.type).toBe('canceled');
  });

  it('Bitrix24: crm.status.list, deal stages of every funnel, SEMANTICS S won and F lost', async () => {
    const handler: FixtureHandler = (request) => {
      if (request.path === `/rest/1/${bitrix.TOKEN}/crm.category.list.json` && request.query.get('entityTypeId') === '2') {
        return { body: { result: { categories: [
          { id: 0, name: 'Общая', sort: 100, entityTypeId: 2, isDefault: 'Y' }, { id: 1, name: 'Опт', sort: 200, entityTypeId: 2, isDefault: 'N' },
        ] }, total: 2, time: {} } };
      }
      if (request.path !== `/rest/1/${bitrix.TOKEN}/crm.status.list.json`) return { status: 404, body: { error: 'ERROR_METHOD_NOT_FOUND', error_description: 'Method not found!' } };
      return { body: { result: [
        { ID: '1', ENTITY_ID: 'STATUS', STATUS_ID: 'NEW', NAME: 'Не обработан', SORT: '10', SYSTEM: 'Y', SEMANTICS: null },
        { ID: '21', ENTITY_ID: 'DEAL_STAGE', STATUS_ID: 'NEW', NAME: 'Новая', SORT: '10', SYSTEM: 'Y', SEMANTICS: null },
        { ID: '27', ENTITY_ID: 'DEAL_STAGE', STATUS_ID: 'WON', NAME: 'Сделка успешна', SORT: '60', SYSTEM: 'Y', SEMANTICS: 'S' },
        { ID: '28', ENTITY_ID: 'DEAL_STAGE', STATUS_ID: 'LOSE', NAME: 'Сделка провалена', SORT: '70', SYSTEM: 'Y', SEMANTICS: 'F' },
        { ID: '61', ENTITY_ID: 'DEAL_STAGE_1', STATUS_ID: 'C1:NEW', NAME: 'Новая (опт)', SORT: '10', SYSTEM: 'Y', SEMANTICS: null, CATEGORY_ID: '1' },
        { ID: '65', ENTITY_ID: 'DEAL_STAGE_1', STATUS_ID: 'C1:WON', NAME: 'Оплачено (опт)', SORT: '60', SYSTEM: 'Y', SEMANTICS: 'S', CATEGORY_ID: '1' },
        { ID: '90', ENTITY_ID: 'SOURCE', STATUS_ID: 'CALL', NAME: 'Звонок', SORT: '10', SYSTEM: 'Y' },
      ], total: 7, time: {} } };
    };
    expect(await stagesOf(bitrix.settings, handler)).toEqual([
      { id: 'NEW', name: 'Новая', type: 'progress' },
      { id: 'WON', name: 'Сделка успешна', type: 'paid' },
      { id: 'LOSE', name: 'Сделка провалена', type: 'canceled' },
      { id: 'C1:NEW', name: 'Новая (опт)', type: 'progress' },
      { id: 'C1:WON', name: 'Оплачено (опт)', type: 'paid' },
    ]);
  });

  it('Pipedrive: /v2/stages as progress, plus won and lost (a closed deal\'s status)', async () => {
    const handler: FixtureHandler = (request) => {
      if (request.headers['x-api-token'] !== pipedrive.TOKEN) return { status: 401, body: { success: false, error: 'unauthorized access' } };
      if (request.path === '/api/v2/pipelines') {
        return { body: { success: true, data: [{ id: 1, name: 'Sales', order_nr: 0, is_deleted: false, is_deal_probability_enabled: true, add_time: '2024-01-01T00:00:00Z', update_time: null }], additional_data: { next_cursor: null } } };
      }
      if (request.path !== '/api/v2/stages') return { status: 404, body: { success: false, error: 'Unknown method .' } };
      return { body: { success: true, data: [
        { id: 1, order_nr: 1, name: 'Qualified', is_deleted: false, deal_probability: 100, pipeline_id: 1, is_deal_rot_enabled: false, days_to_rotten: null, add_time: '2024-01-01T00:00:00Z', update_time: null },
        { id: 2, order_nr: 2, name: 'Contact Made', is_deleted: false, deal_probability: 100, pipeline_id: 1, is_deal_rot_enabled: false, days_to_rotten: null, add_time: '2024-01-01T00:00:00Z', update_time: null },
      ], additional_data: { next_cursor: null } } };
    };
    expect(await stagesOf(pipedrive.settings, handler)).toEqual([
      { id: '1', name: 'Qualified', type: 'progress' },
      { id: '2', name: 'Contact Made', type: 'progress' },
      { id: 'won', name: 'Won', type: 'paid' },
      { id: 'lost', name: 'Lost', type: 'canceled' },
    ]);
  });

  it('HubSpot: every deal pipeline\'s stages, closed with probability 1.0 won, other closed lost', async () => {
    const handler: FixtureHandler = (request) => {
      if (request.path !== '/crm/v3/pipelines/deals' || request.headers.authorization !== `Bearer ${hubspot.TOKEN}`) return { status: 401, body: { status: 'error', message: 'Authentication credentials not found.' } };
      const stage = (id: string, label: string, probability: string, isClosed: string) =>
        ({ id, label, displayOrder: 0, metadata: { isClosed, probability }, createdAt: '2019-10-30T03:30:17.883Z', updatedAt: '2019-12-07T20:50:19.416Z', archived: false });
      return { body: { results: [{
        id: 'default', label: 'Sales Pipeline', displayOrder: 0, archived: false,
        stages: [stage('appointmentscheduled', 'Appointment Scheduled', '0.2', 'false'), stage('closedwon', 'Closed Won', '1.0', 'true'), stage('closedlost', 'Closed Lost', '0.0', 'true')],
      }] } };
    };
    expect(await stagesOf(hubspot.settings, handler)).toEqual([
      { id: 'appointmentscheduled', name: 'Appointment Scheduled', type: 'progress' },
      { id: 'closedwon', name: 'Closed Won', type: 'paid' },
      { id: 'closedlost', name: 'Closed Lost', type: 'canceled' },
    ]);
  });

  it('Bitrix24: a stage name two pipelines share is prefixed with its pipeline; unique names stay as the CRM has them', async () => {
    const handler: FixtureHandler = (request) => {
      if (request.path === `/rest/1/${bitrix.TOKEN}/crm.category.list.json`) {
        return { body: { result: { categories: [
          { id: 0, name: 'Общая', sort: 100, entityTypeId: 2, isDefault: 'Y' }, { id: 1, name: 'Повторные', sort: 200, entityTypeId: 2, isDefault: 'N' },
        ] }, total: 2, time: {} } };
      }
      if (request.path !== `/rest/1/${bitrix.TOKEN}/crm.status.list.json`) return { status: 404, body: { error: 'ERROR_METHOD_NOT_FOUND', error_description: 'Method not found!' } };
      const unique = { ...bitrix.dealStatuses[0], ID: '200', STATUS_ID: 'C1:PREPARATION', NAME: 'Счёт выставлен', SORT: '85' };
      return { body: { result: [...bitrix.dealStatuses, { ...unique, ENTITY_ID: 'DEAL_STAGE_1', CATEGORY_ID: '1' }], total: 7, time: {} } };
    };
    expect(await stagesOf(bitrix.settings, handler)).toEqual([
      { id: 'NEW', name: 'Общая: Новая', type: 'progress' },
      { id: 'WON', name: 'Общая: Сделка успешна', type: 'paid' },
      { id: 'LOSE', name: 'Общая: Сделка провалена', type: 'canceled' },
      { id: 'C1:NEW', name: 'Повторные: Новая', type: 'progress' },
      { id: 'C1:WON', name: 'Повторные: Сделка успешна', type: 'paid' },
      { id: 'C1:LOSE', name: 'Повторные: Сделка провалена', type: 'canceled' },
      { id: 'C1:PREPARATION', name: 'Счёт выставлен', type: 'progress' },
    ]);
  });

  it('Pipedrive: every page of /v2/stages (cursor, at most 500 a page), not the first 500 only', async () => {
    const stage = (id: number) => ({
      id, order_nr: id, name: `Step ${id}`, is_deleted: false, deal_probability: 100, pipeline_id: 1, is_deal_rot_enabled: false,
      days_to_rotten: null, add_time: '2024-01-01T00:00:00Z', update_time: '2024-01-01T00:00:00Z',
    });
    const stages = Array.from({ length: 620 }, (_v, i) => stage(i + 1));
    const handler: FixtureHandler = (request) => {
      if (request.headers['x-api-token'] !== pipedrive.TOKEN) return { status: 401, body: { success: false, error: 'unauthorized access', errorCode: 401, data: null, additional_data: null } };
      if (request.path === '/api/v2/pipelines') {
        return { body: { success: true, data: [{ id: 1, name: 'Sales', order_nr: 0, is_deleted: false, is_deal_probability_enabled: true, add_time: '2024-01-01T00:00:00Z', update_time: '2024-01-01T00:00:00Z' }], additional_data: { next_cursor: null } } };
      }
      if (request.path !== '/api/v2/stages') return { status: 404, body: { success: false, error: 'Unknown method .', errorCode: 404, data: null, additional_data: null } };
      // limit: 100 when absent, at most 500; the cursor is opaque to the client (here: the offset, base64)
      const limit = Math.min(Number(request.query.get('limit') ?? 100), 500);
      const cursor = request.query.get('cursor');
      const page = slice(stages, cursor ? Number(Buffer.from(cursor, 'base64').toString()) : 0, limit);
      return { body: { success: true, data: page.items, additional_data: { next_cursor: page.next === null ? null : Buffer.from(String(page.next)).toString('base64') } } };
    };
    const found = await stagesOf(pipedrive.settings, withSpec('pipedrive', handler));
    expect(found).toHaveLength(622);
    expect(found.slice(-3)).toEqual([{ id: '620', name: 'Step 620', type: 'progress' }, { id: 'won', name: 'Won', type: 'paid' }, { id: 'lost', name: 'Lost', type: 'canceled' }]);
  });

  it('a user\'s own settings.stages (the older form: one request, id/name/type) still lists the stages', async () => {
    const own = (url: string) => ({
      ...amo.settings(url),
      stages: {
        request: { method: 'GET', path: '/api/v4/leads/pipelines' },
        records: '=_embedded.pipelines._embedded.statuses',
        mapping: { id: 'id', name: 'name', type: "=id = 142 ? 'paid' : id = 143 ? 'canceled' : 'progress'" },
      },
    });
    const stages = await stagesOf(own, amo.handler);
    expect(stages.map((s) => s.id)).toEqual(['55500', '55501', '55502', '142', '143', '56601']);
    expect(stages.find((s) => s.id === '143')).toEqual({ id: '143', name: 'Закрыто и не реализовано', type: 'canceled' });
  });

  it('settings.stages without a request is an error naming what to give, or to remove it', async () => {
    const partial = (url: string) => ({ ...amo.settings(url), stages: { records: 'data' } });
    await expect(stagesOf(partial, amo.handler)).rejects.toThrow('connection c: settings.stages needs request.path and mapping.id');
  });

  it('a source that describes no pipelines says what to describe', async () => {
    const none = (url: string) => ({ base_url: url, token: 't', streams: { deals: { request: { path: '/deals' }, records: 'data', mapping: { id: 'id' } } } });
    await expect(stagesOf(none, amo.handler)).rejects.toThrow('connection c: settings.discover.pipelines is not set (preset none gives none)');
  });

  it('mergeStages keeps the project\'s other statuses and reports new and changed stages', () => {
    const merged = mergeStages(
      [{ id: '0', name: 'New', type: 'progress' }, { id: '142', name: 'Won', type: 'paid' }, { id: '143', name: 'Lost', type: 'paid' }],
      [{ id: '142', name: 'Won', type: 'paid' }, { id: '143', name: 'Lost', type: 'canceled' }, { id: '55501', name: 'First', type: 'progress' }],
    );
    expect(merged).toEqual({
      statuses: [
        { id: '0', name: 'New', type: 'progress' }, { id: '142', name: 'Won', type: 'paid' },
        { id: '143', name: 'Lost', type: 'canceled' }, { id: '55501', name: 'First', type: 'progress' },
      ],
      added: ['55501'], changed: ['143'],
    });
  });
});
