import type { SandboxDocumentStore } from '../storage/document-store';
import { seedBilling } from './billing/billing.seed';
import { seedCalltracking } from './calltracking/calltracking.seed';
import { seedCampaigns } from './campaigns/campaigns.seed';
import { seedChannels } from './channels/channels.seed';
import { seedContext } from './common/seed-context';
import { seedDashboards } from './dashboards/dashboards.seed';
import { seedEmailTracking } from './emailtracking/emailtracking.seed';
import { seedEvents } from './events/events.seed';
import { seedLeads } from './leads/leads.seed';
import { seedMediaPlans } from './mediaplans/mediaplans.seed';
import { seedSpeech } from './speech/speech.seed';

/**
 * Demo documents of every section so that every list answers something: channels and
 * expenses, call tracking scripts, media plans, speech dictionaries and calls, tracked e-mails
 * with an attachment, leads and proxy leads, events and triggers, dashboards, billing, e-mail
 * campaigns with their recipients.
 * References to visits use the core's demo visit ids. Called once per fresh database.
 */
export async function seedSections(store: SandboxDocumentStore, projectId: number): Promise<void> {
  const context = seedContext(store, projectId);
  for (const seed of [
    seedChannels, seedCalltracking, seedMediaPlans, seedSpeech, seedEmailTracking, seedLeads, seedEvents,
    seedDashboards, seedBilling, seedCampaigns,
  ]) {
    await seed(context);
  }
}
