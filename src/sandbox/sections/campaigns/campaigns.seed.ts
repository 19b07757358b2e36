import { SeedContext } from '../common/seed-context';
import { CAMPAIGN_KIND, CampaignDoc, CampaignRecipientDoc } from './campaign.types';

/** [title, status_id, first recipient number, recipient count]; ranges overlap so contacts repeat. */
const CAMPAIGNS: [string, string, number, number][] = [
  ['Осенняя распродажа', 'sent', 1, 12],
  ['Новинки месяца', 'sent', 6, 10],
  ['Приглашение на вебинар', 'sending', 12, 6],
  ['Черновик: зимняя акция', 'draft', 1, 0],
];

/** Four mailings (two sent, one sending, one draft) to the demo clients' addresses. */
export async function seedCampaigns({ store, project }: SeedContext): Promise<void> {
  for (const [index, [title, statusId, first, count]] of CAMPAIGNS.entries()) {
    const recipients = Array.from({ length: count }, (_, offset) => recipient(first + offset, index + 1));
    const campaign: CampaignDoc = { title, status_id: statusId, recipients };
    await store.insert(project, CAMPAIGN_KIND, campaign);
  }
}

/** A plausible funnel: sent ≥ delivered ≥ opened ≥ click; a few bounces, unsubscribes and spam marks. */
function recipient(n: number, campaign: number): CampaignRecipientDoc {
  const sent = n % 5 === 0 ? 2 : 1;
  const delivered = n % 9 === 0 ? 0 : sent;
  const opened = delivered > 0 && (n + campaign) % 3 !== 0 ? 1 : 0;
  const click = opened && (n + campaign) % 4 === 0 ? 1 : 0;
  return {
    contact: `client${n}@mail.example`,
    metrics: {
      sent, delivered, opened, click,
      unsubscribe: delivered > 0 && n % 11 === 0 ? 1 : 0,
      spam: delivered > 0 && n % 13 === 0 ? 1 : 0,
    },
  };
}
