import { Injectable, StreamableFile } from '@nestjs/common';
import { SandboxError, badRequest, notFound, notFoundError } from '../../errors/sandbox-error';
import { SandboxDocumentStore, StoredDocument } from '../../storage/document-store';
import { attachmentDisposition } from '../common/attachment-disposition';
import { FieldReader } from '../common/field-reader';
import { matchesAll, pageOf, readPaging, readSort, readTripleFilters, sortRecords } from '../common/record-query';
import { EmailRelations } from './email-relations';
import { ATTACHMENT_KIND, AttachmentDoc, EMAIL_KIND, TrackedEmailDoc } from './email.types';

const FILTER_FIELDS = ['id', 'date', 'email_from', 'email_to', 'subject', 'body', 'visit_id', 'order_id'] as const;
const EXTENSIONS = ['visit', 'order'] as const;

/** Tracked e-mails and their attachments. */
@Injectable()
export class EmailTrackingService {
  constructor(
    private readonly store: SandboxDocumentStore,
    private readonly relations: EmailRelations,
  ) {}

  /**
   * `filters` {and: triples} on the e-mail fields (`date` compares as an instant); `extend` may
   * name `visit` and `order` (otherwise both are null); `sort` [field, direction] (default: newest
   * first); `limit`, `offset`; `total` counts the filtered e-mails before paging.
   */
  async list(project: number, body: unknown): Promise<{ data: Record<string, unknown>[]; total: number }> {
    const reader = FieldReader.ofListBody(body);
    const filters = readTripleFilters(reader, 'filters', { fields: FILTER_FIELDS });
    const extend = readExtend(reader);
    const sort = readSort(reader, 'sort', FILTER_FIELDS) ?? { field: 'date', direction: 'desc' as const };
    const paging = readPaging(reader);
    const emails = (await this.store.list<TrackedEmailDoc>(project, EMAIL_KIND)).filter((email) => matchesAll(email, filters));
    const page = pageOf(sortRecords(emails, sort.field, sort.direction), paging);
    const data = await Promise.all(page.map((email) => this.withRelations(project, email, extend)));
    return { data, total: emails.length };
  }

  /** The file of an attachment of an e-mail of the project, with its original name. */
  async attachment(project: number, emailId: string, attachmentId: string): Promise<StreamableFile> {
    const email = await this.store.get<TrackedEmailDoc>(project, EMAIL_KIND, emailId);
    if (!email) throw notFound(`tracked email ${emailId}`);
    if (!email.attachment_ids.map(String).includes(attachmentId)) {
      throw notFoundError(`attachment ${attachmentId} not found in tracked email ${emailId}`);
    }
    const file = await this.store.get<AttachmentDoc>(project, ATTACHMENT_KIND, attachmentId);
    if (!file) throw notFound(`attachment ${attachmentId}`);
    const content = Buffer.from(file.content_base64, 'base64');
    return new StreamableFile(content, {
      type: file.content_type, length: content.length, disposition: attachmentDisposition(file.filename),
    });
  }

  private async withRelations(project: number, email: StoredDocument<TrackedEmailDoc>, extend: Set<string>) {
    return {
      id: email.id, date: email.date, email_from: email.email_from, email_to: email.email_to,
      subject: email.subject, body: email.body, visit_id: email.visit_id, order_id: email.order_id,
      visit: extend.has('visit') ? await this.relations.visit(project, email.visit_id) : null,
      order: extend.has('order') ? await this.relations.order(project, email.order_id) : null,
      attachment_ids: email.attachment_ids,
    };
  }
}

function readExtend(reader: FieldReader): Set<string> {
  const extend = reader.optionalStringArray('extend') ?? [];
  extend.forEach((name, index) => {
    if (!(EXTENSIONS as readonly string[]).includes(name)) {
      throw badRequest(`extend[${index}]`, `extend[${index}]: must be one of ${EXTENSIONS.join(', ')}, got "${name}"`);
    }
  });
  return new Set(extend);
}
