import { LIST_CAPS } from '../validation/list-caps';

/**
 * The request bodies of the sandbox's routes for its OpenAPI document, written from the specification's Endpoints
 * chapter (and, for the two status operations, from the public clients named in the README). Keyed by
 * `METHOD /path` relative to the API root. `note` is added to the operation's description (caps, sources).
 */
type Schema = Record<string, unknown>;

const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
const int = (description?: string): Schema => ({ type: 'integer', ...(description ? { description } : {}) });
const nullable = (schema: Schema): Schema => ({ ...schema, nullable: true });
const arr = (items: Schema, description?: string): Schema => ({ type: 'array', items, ...(description ? { description } : {}) });
const obj = (properties: Record<string, Schema>, required: string[] = [], description?: string): Schema =>
  ({ type: 'object', properties, ...(required.length ? { required } : {}), ...(description ? { description } : {}) });
const freeObject = (description: string): Schema => ({ type: 'object', additionalProperties: true, description });

const triple = arr({ oneOf: [str(), { type: 'number' }, arr(str())] }, '[field, operator, value]');
const andOrTriples: Schema = {
  oneOf: [arr(triple), obj({ and: arr(triple, 'two or more conditions (one condition inside `and` is answered 500, as the service does)') })],
  description: 'filters: `{and: [triples]}` or a flat array of triples; explicit null = absent',
};
const objectFilters = arr(obj({ field: str(), operator: str(), value: { oneOf: [str(), arr(str())] } }));
const paging = (cap: number, defaultLimit?: number) => ({
  limit: { ...int(`at most ${cap} (400 request_data_validation_error above)${defaultLimit ? `; default ${defaultLimit}` : ''}`), maximum: cap, minimum: 0 },
  offset: { ...int(), minimum: 0 },
});
const period = obj({ from: str('date-time'), to: str('date-time') }, ['from', 'to']);
const sort = arr(str(), '[field, direction]');
const idOnly = (type: Schema = str()) => obj({ id: type }, ['id']);
const monthRange = { date_from: str('YYYY-MM-DD, first day of a month'), date_to: str('YYYY-MM-DD, last day of the same month') };
const mediaPlan = obj({
  channel: str(), ...monthRange, metrics: arr(obj({ name: { type: 'string', enum: ['leads', 'marketing_cost', 'cpl'] }, value: int() }, ['name', 'value'])),
}, ['channel', 'date_from', 'date_to', 'metrics']);
const scriptOptions = obj({
  calltracking_type: str(), segments: arr(str()), phone_format: str(), css_selector: str(),
  redirect: obj({ type: str(), value: str() }), replaceable_numbers: arr(str()),
});
const scriptIntegration = obj({
  crm: obj({ custom_fields: freeObject('CRM fields'), is_enabled: int() }), webhook: obj({ url: str() }), webhook_start: obj({ url: str() }),
  google_analytics: obj({ tracking_id: str(), action: str(), category: str(), label: str() }), is_lead_auto_create: int('1 or 0'),
});
const dictionary = {
  name: str(), is_problem: { type: 'boolean' }, is_for_operator: { type: 'boolean' }, is_for_client: { type: 'boolean' }, color: str(), phrases: arr(str()),
};
const eventDefinition = obj({ display_name: str(), type: { type: 'string', enum: ['js', 'url'] }, parameter: str() }, ['display_name', 'type', 'parameter']);
const eventTrigger = obj({ name: str('name of a defined event'), visit: str('visit number from the tracker_visit cookie'), data: freeObject('extra parameters') });
const statusDefinition = obj({ id: str(), name: str(), type: { type: 'string', enum: ['progress', 'paid', 'canceled'] } }, ['id', 'name', 'type']);
const OUTSIDE_SPEC = 'Outside the specification, shape from public clients (README: behaviour where the specification is silent).';

export const REQUEST_BODIES: Record<string, { schema?: Schema; note?: string }> = {
  'POST /project/add-orders': {
    schema: arr(obj({
      id: str('deal id in the CRM'), name: str(), date_create: str('UNIX time, YYYY-MM-DD HH:MM[:SS] (UTC+03:00), or with an offset'),
      status: str('a status id of the project (status/list)'), tracker: nullable(str('visit id')), price: nullable(str()), cost: nullable(str()),
      client_id: str('client id in the CRM'), fields: freeObject('custom fields, at most 1000 symbols each'),
      products: arr(obj({ id: str(), name: str(), quantity: int(), price: { type: 'number' }, cost: { type: 'number' }, brand: str(), variant: str(),
        category: obj({ level1: str(), level2: str(), level3: str(), level4: str(), level5: str() }) }, ['id', 'name', 'quantity'])),
      history: arr(obj({ date: str(), price: nullable({ type: 'number' }), cost: nullable({ type: 'number' }), status: str() })),
    })),
  },
  'POST /project/integration/order/list': {
    schema: obj({ filters: andOrTriples, extend: arr({ type: 'string', enum: ['visit'] }), ...paging(LIST_CAPS.orders, 100) }),
    note: `limit at most ${LIST_CAPS.orders} (our cap: the specification states none); answers above ${1000} records are built one at a time.`,
  },
  'POST /project/site/visit/list': {
    schema: obj({ filters: andOrTriples, ...paging(LIST_CAPS.visits, 1000) }),
    note: `limit at most ${LIST_CAPS.visits} (the specification's Limits table).`,
  },
  'POST /project/site/visit/params/update': {
    schema: obj({ visit: str(), tracker_param1: nullable(str('tracker_param1 .. tracker_param50')) }, ['visit']),
  },
  'POST /_sandbox/visits': { schema: arr(freeObject('a partial Visit record (id, date, source.system_name, ...)')), note: 'Sandbox only.' },
  'POST /project/clients/import': {
    schema: arr(obj({
      id: str('CRM client id'), name: str(), phone: nullable(str('one or several, comma-separated')), email: nullable(str()),
      company: nullable(str()), birth_date: nullable(str('YYYY-MM-DD')), fields: freeObject('name to value'),
    }, ['id', 'name'])),
  },
  'POST /project/clients': {
    schema: obj({ filters: andOrTriples, ...paging(LIST_CAPS.clients, 100) }),
    note: `limit at most ${LIST_CAPS.clients} (our cap).`,
  },
  'POST /project/integration/manager/add': { schema: obj({ id: str(), name: str(), phone: nullable(str()), email: nullable(str()) }, ['id', 'name']) },
  'POST /project/integration/manager/update': { schema: obj({ id: str(), name: str(), phone: nullable(str()), email: nullable(str()) }, ['id']) },
  'POST /project/integration/manager/delete': { schema: idOnly() },
  'POST /account/project/create': { schema: obj({ name: str(), currency: str('RUB, USD, EUR, UAH, KZT, BYN, BYR, CHF, GBP, CZK, AED') }, ['name', 'currency']) },
  'POST /project/integration/status/list': { note: OUTSIDE_SPEC },
  'POST /project/set-statuses': { schema: arr(statusDefinition, 'the whole dictionary: it replaces the project\'s statuses'), note: OUTSIDE_SPEC },
  'POST /project/analytics/source/cost/add': {
    schema: obj({ source: str(), from_date: str('YYYY-MM-DD'), to_date: str('YYYY-MM-DD'), timezone: str(), marketing_cost: int() }, ['source', 'from_date', 'to_date', 'marketing_cost']),
  },
  'POST /project/analytics/source/cost/update': { schema: obj({ id: int(), marketing_cost: int() }, ['id']) },
  'POST /project/analytics/source/cost/delete': { schema: idOnly(int()) },
  'POST /project/calltracking/script/create': {
    schema: obj({ name: str(), is_enabled: int('1 create and enable, 0 only create'), creation_date: str(), options: scriptOptions, integration: scriptIntegration },
      ['name', 'is_enabled', 'creation_date', 'options']),
  },
  'POST /project/calltracking/script/list': { schema: obj({ is_deleted: int('0 existing scripts (default), 1 deleted; null = absent') }) },
  'POST /project/calltracking/script/update': {
    schema: obj({ id: int(), name: str(), is_enabled: int(), options: scriptOptions, integration: scriptIntegration }, ['id']),
  },
  'POST /project/calltracking/script/delete': { schema: idOnly(int()) },
  'POST /project/mediaplan/target/list': { schema: obj(monthRange, ['date_from', 'date_to']) },
  'POST /project/mediaplan/target/create': { schema: mediaPlan },
  'POST /project/mediaplan/target/update': { schema: { ...mediaPlan, properties: { id: str(), ...(mediaPlan.properties as object) }, required: ['id', ...(mediaPlan.required as string[])] } },
  'POST /project/mediaplan/target/delete': { schema: idOnly() },
  'POST /project/speech/call/add': {
    schema: obj({
      date: str('UTC'), callee: str(), caller: str(), file_url: str('MP3, WAV or OGG'), operator: str(), comment: str(), is_swapped: int(),
      is_outcoming: int(), order_id: str(), visit_id: nullable(int()), marker: nullable(int()), fields: arr(obj({ title: str(), name: str(), value: str() })),
    }, ['date', 'callee', 'caller', 'file_url']),
  },
  'POST /project/speech/call/list': {
    schema: obj({ period, sort, filters: objectFilters, ...paging(LIST_CAPS.sections) }),
    note: `limit at most ${LIST_CAPS.sections}, and that many when absent (our cap).`,
  },
  'POST /project/speech/dictionary/custom/phrase/list': { schema: idOnly({ oneOf: [str(), int()] }) },
  'POST /project/speech/dictionary/custom/create': { schema: obj(dictionary, Object.keys(dictionary)) },
  'POST /project/speech/dictionary/custom/update': { schema: obj({ id: { oneOf: [str(), int()] }, ...dictionary }, ['id']) },
  'POST /project/speech/dictionary/custom/delete': { schema: idOnly({ oneOf: [str(), int()] }) },
  'POST /project/emailtracking/email/list': {
    schema: obj({ filters: andOrTriples, extend: arr({ type: 'string', enum: ['visit', 'order'] }), sort, ...paging(LIST_CAPS.sections) }),
    note: `limit at most ${LIST_CAPS.sections}, and that many when absent (our cap).`,
  },
  'POST /project/leads/lead/list': {
    schema: obj({
      period, filters: objectFilters, sort_field: { type: 'string', enum: ['creation_date', 'id', 'paid_date', 'price', 'source', 'status'] },
      sort_order: { type: 'string', enum: ['asc', 'desc'] }, ...paging(LIST_CAPS.sections),
    }, ['period', 'sort_field']),
    note: `limit at most ${LIST_CAPS.sections}, and that many when absent (our cap).`,
  },
  'POST /project/leads/lead/create': {
    schema: obj({ creation_date: str(), name: str(), status: { type: 'string', enum: ['0', '1', '2'] }, title: str(), email: str(), paid_date: str(), phone: str(), price: int(), source: str() },
      ['creation_date', 'name', 'status', 'title']),
  },
  'POST /project/leads/lead/update': {
    schema: obj({ id: str(), creation_date: str(), email: str(), name: str(), paid_date: str(), phone: str(), price: int(), source: str(), status: str(), text: str(), title: str() }, ['id']),
  },
  'POST /project/events/add': { schema: arr(eventDefinition) },
  'POST /project/events/meta/{eventId}/archive': { schema: arr(eventDefinition, 'not needed by the archive') },
  'POST /project/events/send': { schema: { ...eventTrigger, required: ['name'] } },
  'POST /project/events/bulk/send': {
    schema: arr(eventTrigger, 'all fields optional; a trigger naming no defined event is accepted and logged nowhere, as the service does'),
  },
  'POST /user/billing/transactions/list': { schema: obj({ period, filters: andOrTriples }) },
  'POST /user/billing/transactions/list/export/excel': { schema: obj({ period, filters: andOrTriples }) },
  'POST /project/clients/campaign/list': {
    schema: obj({ filters: arr(triple), ...paging(LIST_CAPS.sections) }),
    note: `limit at most ${LIST_CAPS.sections}, and that many when absent (our cap).`,
  },
  'POST /project/clients/campaign/contact/list': {
    schema: obj({ period, filters: andOrTriples, metric_ids: arr(str()), ...paging(LIST_CAPS.sections) }),
    note: `limit at most ${LIST_CAPS.sections}, and that many when absent (our cap).`,
  },
};

interface OperationObject {
  description?: string;
  requestBody?: unknown;
}

/** Puts the bodies and notes into a generated document (paths carry the mount prefix, e.g. /api/v1). */
export function addRequestBodies(paths: Record<string, Record<string, OperationObject>>): void {
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const key = Object.keys(REQUEST_BODIES).find((k) => {
        const [m, p] = k.split(' ');
        return m.toLowerCase() === method && path.endsWith(p);
      });
      const entry = key ? REQUEST_BODIES[key] : undefined;
      if (!entry) continue;
      if (entry.schema && method !== 'get') {
        operation.requestBody = { required: false, content: { 'application/json': { schema: entry.schema } } };
      }
      if (entry.note) operation.description = [operation.description, entry.note].filter(Boolean).join(' ');
    }
  }
}
