/**
 * Canonical records: what every connector yields, whatever the source.
 * The engine alone maps them to the service's payloads (connectors never import src/tracker).
 * Instants are JS Dates (absolute, zone-free); plain calendar dates are 'YYYY-MM-DD' strings.
 */

export type CoreStream = 'managers' | 'clients' | 'deals';
export type ExtraStream = 'expenses' | 'mediaplans' | 'leads' | 'events';
export type StreamName = CoreStream | ExtraStream;

/** Dependency order of a run: every client an order refers to is imported before the order. */
export const STREAM_ORDER: readonly StreamName[] = [
  'managers',
  'clients',
  'deals',
  'expenses',
  'mediaplans',
  'leads',
  'events',
];

/**
 * The streams each stream needs delivered in the same run: a deal sent before its client is imported is not linked
 * to it, and its fingerprint keeps it from being sent again. A run whose stream failed skips those that need it
 * (src/engine/run/stream-results.ts). Nothing needs managers: a deal carries its manager's id in a custom field only.
 */
export const STREAM_NEEDS: Readonly<Partial<Record<StreamName, readonly StreamName[]>>> = {
  deals: ['clients'],
};

export type CustomFields = Record<string, string | null>;

export interface Manager {
  id: string;
  name: string;
  phone?: string | null;
  email?: string | null;
}

export interface Client {
  id: string;
  name: string;
  phones?: string[];
  emails?: string[];
  company?: string | null;
  /** 'YYYY-MM-DD' */
  birth_date?: string | null;
  custom_fields?: CustomFields;
  updated_at?: Date | null;
}

export interface Product {
  id: string;
  name: string;
  quantity: number;
  price?: number | null;
  cost?: number | null;
  brand?: string | null;
  variant?: string | null;
  /** category path from the top level down; the service accepts at most 5 levels */
  categories?: string[];
}

export interface StatusChange {
  date: Date;
  /** the service's status id (after the connector's status mapping) */
  status: string;
  price?: number | null;
  cost?: number | null;
}

/**
 * One stage of the CRM's deal funnels, with its group as the service counts it: what `statuses: register` defines
 * in the project (set-statuses) so that deals can be sent with the CRM's own stage ids.
 */
export interface DealStage {
  /** the stage id exactly as deals carry it in `status` */
  id: string;
  name: string;
  type: 'progress' | 'paid' | 'canceled';
}

export const DEAL_STAGE_TYPES: readonly DealStage['type'][] = ['progress', 'paid', 'canceled'];

export interface Deal {
  id: string;
  title?: string | null;
  created_at: Date;
  updated_at?: Date | null;
  /** the service's status id (after the connector's status mapping) */
  status?: string | null;
  /** visit number from the tracker_visit cookie; becomes the service's `tracker` field */
  visit_id?: string | null;
  /**
   * null: the source's amount is empty, and the service's is cleared (sent as null); undefined: the source has no
   * such field (a sheet without the column, a CRM mapping without it), left out so the service keeps its value
   */
  price?: number | null;
  /** as price */
  cost?: number | null;
  client_id?: string | null;
  manager_id?: string | null;
  custom_fields?: CustomFields;
  products?: Product[];
  history?: StatusChange[];
  /**
   * When the deal reached the final status it is in (won or lost), as the CRM records it: amoCRM's `closed_at`,
   * Pipedrive's `won_time` / `lost_time`, HubSpot's `closedate` of a closed deal, Bitrix24's `movedTime` of a closed
   * one, a sheet's `closed_at` column. Set only for a deal in a final status, never for an open one (an expected close
   * date is no close time); a sheet cannot tell which statuses are final, so its users are told to fill it so.
   * The engine adds a history entry at this time with the deal's status when the history has none with it
   * (the history feature off or refused, the CRM's log expired, a deal imported closed), so the service dates
   * the payment or cancellation then and not at the sync.
   */
  closed_at?: Date | null;
}

/** Ad spend of one channel over a period (analytics/source/cost/add). */
export interface Expense {
  id: string;
  /** channel system name */
  channel: string;
  /** 'YYYY-MM-DD' */
  from_date: string;
  /** 'YYYY-MM-DD' */
  to_date: string;
  marketing_cost: number;
  timezone?: string | null;
}

/** Monthly targets of one channel (mediaplan/target/create|update). */
export interface MediaPlanTarget {
  id: string;
  channel: string;
  /** first day of the month, 'YYYY-MM-DD' */
  date_from: string;
  /** last day of the same month, 'YYYY-MM-DD' */
  date_to: string;
  leads?: number | null;
  marketing_cost?: number | null;
  cpl?: number | null;
}

/** An offline lead (leads/lead/create|update). */
export interface Lead {
  id: string;
  title: string;
  name: string;
  created_at: Date;
  /** '0' progress, '1' paid, '2' canceled */
  status: string;
  email?: string | null;
  phone?: string | null;
  price?: number | null;
  paid_at?: Date | null;
  visit_id?: string | null;
  text?: string | null;
}

/** A custom event trigger (events/bulk/send). */
export interface CustomEvent {
  id: string;
  name: string;
  visit_id?: string | null;
  data?: Record<string, unknown> | null;
}

export interface StreamRecordTypes {
  managers: Manager;
  clients: Client;
  deals: Deal;
  expenses: Expense;
  mediaplans: MediaPlanTarget;
  leads: Lead;
  events: CustomEvent;
}
export type CanonicalRecord = StreamRecordTypes[StreamName];
