import type { Provider, Type } from '@nestjs/common';
import { BillingController } from './billing/billing.controller';
import { BillingService } from './billing/billing.service';
import { CalltrackingController } from './calltracking/calltracking.controller';
import { CalltrackingService } from './calltracking/calltracking.service';
import { CampaignsController } from './campaigns/campaigns.controller';
import { CampaignsService } from './campaigns/campaigns.service';
import { ChannelsController } from './channels/channels.controller';
import { ChannelsService } from './channels/channels.service';
import { ExpensesService } from './channels/expenses.service';
import { DashboardsController } from './dashboards/dashboards.controller';
import { DashboardsService } from './dashboards/dashboards.service';
import { EmailRelations } from './emailtracking/email-relations';
import { EmailTrackingController } from './emailtracking/emailtracking.controller';
import { EmailTrackingService } from './emailtracking/emailtracking.service';
import { EventsController } from './events/events.controller';
import { EventsService } from './events/events.service';
import { LeadsController } from './leads/leads.controller';
import { LeadsService } from './leads/leads.service';
import { MediaPlansController } from './mediaplans/mediaplans.controller';
import { MediaPlansService } from './mediaplans/mediaplans.service';
import { ProxyLeadsAddController } from './proxyleads/proxyleads-add.controller';
import { ProxyLeadsController } from './proxyleads/proxyleads.controller';
import { ProxyLeadsService } from './proxyleads/proxyleads.service';
import { DictionariesService } from './speech/dictionaries.service';
import { SpeechCallsService } from './speech/speech-calls.service';
import { SpeechController } from './speech/speech.controller';

/** The sections of the interface beyond orders, clients, managers, visits and projects (plus e-mail campaigns). */
export const SANDBOX_SECTION_CONTROLLERS: Type[] = [
  ChannelsController, CalltrackingController, MediaPlansController, SpeechController, EmailTrackingController,
  LeadsController, ProxyLeadsController, EventsController, DashboardsController, BillingController, CampaignsController,
  ProxyLeadsAddController,
];

/** Their services; they need the core's SandboxDocumentStore and SANDBOX_DATA_SOURCE. */
export const SANDBOX_SECTION_PROVIDERS: Provider[] = [
  ChannelsService, ExpensesService, CalltrackingService, MediaPlansService, DictionariesService, SpeechCallsService,
  EmailRelations, EmailTrackingService, LeadsService, ProxyLeadsService, EventsService, DashboardsService,
  BillingService, CampaignsService,
];

export { seedSections } from './seed';
