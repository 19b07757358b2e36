import { StatusResponse } from './common.types';

export type MediaPlanMetricName = 'leads' | 'marketing_cost' | 'cpl';

export interface MediaPlanMetric {
  name: MediaPlanMetricName;
  /** Integer in requests; a decimal occurs for `cpl` in responses. */
  value: number;
}

export interface MediaPlan {
  id: string;
  channel: string;
  metrics: MediaPlanMetric[];
  /** 'YYYY-MM-DD', first day of a month. */
  date_from: string;
  /** 'YYYY-MM-DD', last day of the same month. */
  date_to: string;
}

export interface MediaPlanListRequest {
  date_from: string;
  date_to: string;
}

export interface MediaPlanListResponse extends StatusResponse {
  data: MediaPlan[];
  total: number;
}

export interface MediaPlanCreateRequest {
  channel: string;
  date_from: string;
  date_to: string;
  metrics: MediaPlanMetric[];
}

/** Update takes the plan id plus all fields of create. */
export interface MediaPlanUpdateRequest extends MediaPlanCreateRequest {
  id: string;
}
