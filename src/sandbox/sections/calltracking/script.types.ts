/** Document kind and shapes of call tracking scripts (Resources: "Call tracking script"). */
export const SCRIPT_KIND = 'calltracking_script';

export type CalltrackingType = 'dynamic' | 'static';
export type RedirectType = 'phone' | 'sip' | 'sip_trunk';
export type Triple = [string, string, unknown];
export type Segments = Triple[] | { AND?: Triple[]; OR?: Triple[] };

export interface ScriptOptions {
  calltracking_type: CalltrackingType;
  static_source: string | null;
  css_selector: string[];
  phone_format: string;
  redirect: { type: RedirectType; value: string };
  segments: Segments;
  target_call_time: number;
  /** Kept for the record; the Resources table does not show it in answers. */
  replaceable_numbers: string[];
}

export interface CrmIntegration {
  enabled: 0 | 1;
  custom_fields: { id: string; type: string; value: string }[];
}

export interface GoogleAnalyticsIntegration {
  tracking_id: string | null;
  action: 'call';
  category: 'phone';
  label: string;
}

export interface ScriptIntegration {
  is_lead_auto_create: 0 | 1;
  crm: CrmIntegration;
  webhook: { url: string | null } | null;
  webhook_start: { url: string | null } | null;
  google_analytics: GoogleAnalyticsIntegration | null;
}

export interface ScriptDoc {
  name: string;
  /** `YYYY-MM-DDTHH:MM:SS+0000` (UTC) */
  creation_date: string;
  is_enabled: 0 | 1;
  /** 1 once deleted: the script is gone but the list selects it with `is_deleted` = 1. */
  is_deleted: 0 | 1;
  call_count: number;
  accuracy: number | null;
  options: ScriptOptions;
  integration: ScriptIntegration;
}
