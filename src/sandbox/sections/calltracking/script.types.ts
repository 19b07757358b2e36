/** Document kind and stored shape of call tracking scripts (Resources: "Call tracking script"). */
import type {
  CalltrackingScript, CalltrackingType, GoogleAnalyticsIntegration, RedirectType,
} from '../../../tracker/types/calltracking.types';

export type { CalltrackingType, GoogleAnalyticsIntegration, RedirectType };
/** Segments are stored as the request gave them: any operator and value, unlike the client's typed triples. */
export type Triple = [string, string, unknown];
export type Segments = Triple[] | { AND?: Triple[]; OR?: Triple[] };

export const SCRIPT_KIND = 'calltracking_script';

export interface ScriptOptions extends Omit<CalltrackingScript['options'], 'segments'> {
  segments: Segments;
  /** Kept for the record; the Resources table does not show it in answers. */
  replaceable_numbers: string[];
}

/** As stored: flags are numbers; the list answer turns `is_lead_auto_create` into a string. */
export interface CrmIntegration {
  enabled: 0 | 1;
  custom_fields: CalltrackingScript['integration']['crm']['custom_fields'];
}

export interface ScriptIntegration extends Omit<CalltrackingScript['integration'], 'is_lead_auto_create' | 'crm'> {
  is_lead_auto_create: 0 | 1;
  crm: CrmIntegration;
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
