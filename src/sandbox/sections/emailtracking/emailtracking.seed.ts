import { SeedContext } from '../common/seed-context';
import { daysAgo, formatUtcTimestamp } from '../common/service-time';
import { ATTACHMENT_KIND, AttachmentDoc, EMAIL_KIND, TrackedEmailDoc } from './email.types';

const SUBJECTS = ['Запрос прайс-листа', 'Вопрос о доставке', 'Счёт на оплату', 'Партнёрство', 'Возврат товара'];
/** The second e-mail names this CRM order; it resolves with `extend: ["order"]` once the order is uploaded. */
export const DEMO_EMAIL_ORDER_ID = 'email-demo-order';
export const DEMO_ATTACHMENT = { filename: 'price-request.csv', content: 'sku;quantity\nA-100;2\nB-200;5\n' };

/** Five tracked e-mails over the last weeks; the first carries a CSV attachment. */
export async function seedEmailTracking({ store, project, now, visitId }: SeedContext): Promise<void> {
  for (const [index, subject] of SUBJECTS.entries()) {
    const email: TrackedEmailDoc = {
      date: formatUtcTimestamp(daysAgo(now, 2 + index * 6, 9 + index)), email_from: `client${index + 1}@mail.example`,
      email_to: 'sales@shop.example', subject, body: `${subject}. Письмо клиента №${index + 1}.`,
      visit_id: visitId(1980 - index * 11), order_id: index === 1 ? DEMO_EMAIL_ORDER_ID : '', attachment_ids: [],
    };
    const stored = await store.insert(project, EMAIL_KIND, email);
    if (index !== 0) continue;
    const attachment: AttachmentDoc = {
      email_id: stored.id, filename: DEMO_ATTACHMENT.filename, content_type: 'text/csv',
      content_base64: Buffer.from(DEMO_ATTACHMENT.content, 'utf8').toString('base64'),
    };
    const file = await store.insert(project, ATTACHMENT_KIND, attachment);
    await store.update<TrackedEmailDoc>(project, EMAIL_KIND, stored.id, { attachment_ids: [Number(file.id)] });
  }
}
