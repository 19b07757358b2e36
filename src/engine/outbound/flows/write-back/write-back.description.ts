import type { OutboundFlowDescription } from '../../../../runs/outbound-flows';

/** The write-back flow in words: its name, its counters with what each means, its /metrics series. */
export const writeBackDescription = {
  name: 'write_back',
  title: 'write-back',
  about: "The deals' attribution (channel, UTM tags, city…) written back into the CRM (`settings.write_back`); its refusals are listed with each run's rejected records.",
  counters: {
    attributed: "the connection's deals in the window whose order has a visit",
    written: 'deals whose changed values the CRM took',
    unchanged: 'deals whose values were already written (nothing sent)',
    rejected: 'deals the CRM refused (each a rejected record with its reason)',
  },
  metric: { name: 'tracker_sync_write_back_deals_total', help: 'Deals of write-back runs by connection and outcome (attributed, written, unchanged, rejected)' },
} as const satisfies OutboundFlowDescription;
