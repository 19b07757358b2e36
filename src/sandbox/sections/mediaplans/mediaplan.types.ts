/** Document kind and shape of media plans (Resources: "Media plan"). */
export const MEDIAPLAN_KIND = 'mediaplan';

export const METRIC_NAMES = ['leads', 'marketing_cost', 'cpl'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

export interface MediaPlanDoc {
  channel: string;
  metrics: { name: MetricName; value: number }[];
  /** `YYYY-MM-DD`, first day of the month */
  date_from: string;
  /** `YYYY-MM-DD`, last day of the same month */
  date_to: string;
}
