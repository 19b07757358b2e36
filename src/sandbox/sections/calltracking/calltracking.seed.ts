import { SeedContext } from '../common/seed-context';
import { daysAgo, formatUtcTimestamp } from '../common/service-time';
import { DEFAULT_PHONE_FORMAT, SERVICE_LABEL } from './script-input';
import { SCRIPT_KIND, ScriptDoc } from './script.types';

/** A dynamic enabled script, a static deactivated one, and a deleted one. */
export async function seedCalltracking({ store, project, now }: SeedContext): Promise<void> {
  const scripts: ScriptDoc[] = [
    script('Website numbers', 1, 0, daysAgo(now, 80), 'dynamic', null, ['+74950000001', '+74950000002', '+74950000003']),
    script('Billboard on Tverskaya', 0, 0, daysAgo(now, 60), 'static', 'referral', ['+74950000010']),
    script('Old landing test', 0, 1, daysAgo(now, 85), 'dynamic', null, ['+74950000020']),
  ];
  scripts[0].call_count = 42;
  scripts[0].accuracy = 87;
  scripts[0].integration.webhook = { url: 'https://crm.example/webhooks/calls' };
  scripts[0].integration.google_analytics = { tracking_id: 'UA-123456-1', action: 'call', category: 'phone', label: SERVICE_LABEL };
  for (const doc of scripts) await store.insert(project, SCRIPT_KIND, doc);
}

function script(name: string, isEnabled: 0 | 1, isDeleted: 0 | 1, created: Date, type: 'dynamic' | 'static',
  staticSource: string | null, numbers: string[]): ScriptDoc {
  return {
    name, creation_date: formatUtcTimestamp(created), is_enabled: isEnabled, is_deleted: isDeleted, call_count: 0, accuracy: null,
    options: {
      calltracking_type: type, static_source: staticSource, css_selector: ['.header-phone', '#footer-phone'],
      phone_format: DEFAULT_PHONE_FORMAT, redirect: { type: 'phone', value: '+74951234567' },
      segments: type === 'static' ? [] : [['source.system_name', 'in', ['google_ads', 'yandex_direct']]],
      target_call_time: 0, replaceable_numbers: numbers,
    },
    integration: {
      is_lead_auto_create: 0, crm: { enabled: 0, custom_fields: [] },
      webhook: null, webhook_start: null, google_analytics: null,
    },
  };
}
