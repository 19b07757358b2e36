import type { StreamName } from 'tracker-sync/connector';

/** The column names each stream understands without a mapping (case-insensitive). */
export const STREAM_FIELDS: Record<StreamName, readonly string[]> = {
  deals: [
    'id', 'title', 'status', 'created_at', 'updated_at', 'closed_at', 'price', 'cost', 'visit_id', 'client_id', 'manager_id',
    'products', 'history', 'status_history',
  ],
  clients: ['id', 'name', 'phone', 'email', 'company', 'birth_date', 'updated_at'],
  managers: ['id', 'name', 'phone', 'email'],
  expenses: ['id', 'channel', 'from_date', 'to_date', 'marketing_cost', 'timezone'],
  mediaplans: ['id', 'channel', 'month', 'date_from', 'date_to', 'leads', 'marketing_cost', 'cpl'],
  leads: ['id', 'title', 'name', 'created_at', 'status', 'email', 'phone', 'price', 'paid_at', 'visit_id', 'text'],
  events: ['id', 'name', 'visit_id', 'data'],
};

/**
 * Columns a sheet must have (after `columns` mapping), as alternatives: without them every row would be
 * rejected, so the stream fails once instead with a message naming the header.
 */
export const REQUIRED_COLUMNS: Record<StreamName, ReadonlyArray<readonly string[]>> = {
  deals: [['id'], ['created_at']],
  clients: [['id'], ['name']],
  managers: [['id'], ['name']],
  expenses: [['channel'], ['from_date'], ['to_date'], ['marketing_cost']],
  mediaplans: [['channel'], ['month', 'date_from']],
  leads: [['id'], ['created_at']],
  events: [['name']],
};

/** Streams that send the columns no field claims: as custom fields (deals, clients) or event data. */
export const OTHER_COLUMNS_SENT: ReadonlySet<StreamName> = new Set<StreamName>(['deals', 'clients', 'events']);

/** Other names a header may use for a field (lower case), in every stream that has the field. */
const FIELD_ALIASES: Record<string, string> = { phones: 'phone', emails: 'email' };

/**
 * Other names of one stream's fields: a deal's close date as exports head it. Per stream, as `paid_at` is a lead's
 * own field, and a name aliased here is a custom field of another stream.
 */
const STREAM_ALIASES: Partial<Record<StreamName, Record<string, string>>> = {
  deals: {
    close_date: 'closed_at', closed_date: 'closed_at', paid_date: 'closed_at', paid_at: 'closed_at',
    'дата закрытия': 'closed_at', 'дата оплаты': 'closed_at',
  },
};

/** The field a header name (lower case) stands for in a stream: an alias's field, else the name itself. */
export function fieldOfHeader(stream: StreamName, name: string): string {
  const own = STREAM_ALIASES[stream];
  if (own && Object.hasOwn(own, name)) return own[name];
  return Object.hasOwn(FIELD_ALIASES, name) ? FIELD_ALIASES[name] : name;
}

/** product_1_id, product_1_name, ... product_N_category: one group of columns per product of a deal row */
export const PRODUCT_COLUMN = /^product_(\d+)_(id|name|price|quantity|cost|brand|variant|category)$/;
