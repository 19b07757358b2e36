import { FilterTriple } from '../filters';
import { StatusResponse } from './common.types';

export type CalltrackingType = 'dynamic' | 'static';
export type RedirectType = 'phone' | 'sip' | 'sip_trunk';

/** A list of triples, or an object keyed `AND` / `OR` holding lists of triples. */
export type CalltrackingSegments = FilterTriple[] | { AND?: FilterTriple[]; OR?: FilterTriple[] };

export interface CalltrackingRedirect {
  type: RedirectType;
  /** Phone number, external SIP account name, or password of the service SIP account. */
  value: string;
}

export interface CrmCustomField {
  /** CRM field id. */
  id: string;
  type: string;
  value: string;
}

export interface GoogleAnalyticsIntegration {
  /** Form 'UA-XXX-Y'. */
  tracking_id: string | null;
  action: 'call';
  category: 'phone';
  /** Always the service name in lower case. */
  label: string;
}

export interface CalltrackingScript {
  id: number;
  name: string;
  creation_date: string;
  is_enabled: 0 | 1;
  call_count: number;
  accuracy: number | null;
  needed_phone_count: null;
  options: {
    calltracking_type: CalltrackingType;
    static_source: string | null;
    css_selector: string[];
    phone_format: string;
    redirect: CalltrackingRedirect & { sip_trunk_postfix?: string | null };
    segments: CalltrackingSegments;
    /** Unused. */
    target_call_time: number;
  };
  integration: {
    /** Integer; string '1'/'0' in the list response. */
    is_lead_auto_create: 0 | 1 | '0' | '1';
    crm: { enabled: number; custom_fields: CrmCustomField[] };
    webhook: { url: string | null } | null;
    webhook_start: { url: string | null } | null;
    google_analytics: GoogleAnalyticsIntegration | null;
  };
}

export interface CalltrackingOptionsInput {
  calltracking_type?: CalltrackingType;
  segments?: CalltrackingSegments;
  phone_format?: string;
  css_selector?: string[];
  redirect?: CalltrackingRedirect;
  /** Required on create: numbers that replace the main number. */
  replaceable_numbers?: string[];
}

export interface CalltrackingIntegrationInput {
  crm?: { custom_fields?: CrmCustomField[]; is_enabled: number };
  webhook?: { url: string | null };
  webhook_start?: { url: string | null };
  google_analytics?: Partial<GoogleAnalyticsIntegration>;
  is_lead_auto_create?: 0 | 1;
}

export interface CalltrackingCreateRequest {
  name: string;
  /** 1 create and enable, 0 only create. */
  is_enabled: 0 | 1;
  creation_date: string;
  options: CalltrackingOptionsInput & { css_selector: string[]; redirect: CalltrackingRedirect; replaceable_numbers: string[] };
  integration?: CalltrackingIntegrationInput;
}

export interface CalltrackingCreateResponse extends StatusResponse {
  data: CalltrackingScript;
  total: number;
}

export interface CalltrackingListRequest {
  /** 0 existing scripts, 1 deleted scripts. */
  is_deleted?: 0 | 1;
}

export interface CalltrackingListResponse extends StatusResponse {
  data: CalltrackingScript[];
  total: number;
}

export interface CalltrackingUpdateRequest {
  id: number;
  name?: string;
  is_enabled?: 0 | 1;
  options?: Omit<CalltrackingOptionsInput, 'replaceable_numbers'>;
  integration?: CalltrackingIntegrationInput;
}
