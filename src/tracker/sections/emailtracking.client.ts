import { normalizeAndFilters } from '../filters';
import { BinaryFile } from '../http/binary-file';
import { TrackerHttp } from '../http/tracker-http';
import { TrackedEmailListRequest, TrackedEmailListResponse } from '../types/emailtracking.types';

export class EmailtrackingClient {
  constructor(private readonly http: TrackerHttp) {}

  /** POST /project/emailtracking/email/list */
  list(req: TrackedEmailListRequest = {}): Promise<TrackedEmailListResponse> {
    return this.http.call('emailsList', { body: { ...req, filters: normalizeAndFilters(req.filters) } });
  }

  /** GET /project/emailtracking/email/{email_id}/attachment/{attachment_id}: the file, named. */
  attachment(emailId: string | number, attachmentId: string | number): Promise<BinaryFile> {
    return this.http.callBinary('emailAttachment', {
      pathParams: { email_id: emailId, attachment_id: attachmentId },
    });
  }
}
