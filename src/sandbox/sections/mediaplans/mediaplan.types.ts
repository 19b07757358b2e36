/** Document kind and stored shape of media plans (Resources: "Media plan"). */
import type { MediaPlan, MediaPlanMetricName } from '../../../tracker/types/mediaplans.types';

export const MEDIAPLAN_KIND = 'mediaplan';

export const METRIC_NAMES = ['leads', 'marketing_cost', 'cpl'] as const satisfies readonly MediaPlanMetricName[];

export type MediaPlanDoc = Omit<MediaPlan, 'id'>;
