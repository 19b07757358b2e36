/** Document kinds of e-mail tracking (Resources: "Tracked email"). */
import type { TrackedEmail } from '../../../tracker/types/emailtracking.types';

export const EMAIL_KIND = 'tracked_email';
export const ATTACHMENT_KIND = 'email_attachment';

/** Stored without the relations (`visit`, `order`), which are looked up when `extend` asks for them. */
export type TrackedEmailDoc = Omit<TrackedEmail, 'id' | 'visit' | 'order'>;

/** A stored file; its id is one of the e-mail's `attachment_ids`. */
export interface AttachmentDoc {
  email_id: string;
  filename: string;
  content_type: string;
  content_base64: string;
}
