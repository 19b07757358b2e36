import { normalizeAndFilters } from '../filters';
import { BinaryFile } from '../http/binary-file';
import { TrackerHttp } from '../http/tracker-http';
import { BillingTransactionListRequest, BillingTransactionListResponse } from '../types/billing.types';

export class BillingClient {
  constructor(private readonly http: TrackerHttp) {}

  /** POST /user/billing/transactions/list */
  transactions(req: BillingTransactionListRequest): Promise<BillingTransactionListResponse> {
    return this.http.call('billingTransactions', { body: { ...req, filters: normalizeAndFilters(req.filters) } });
  }

  /** POST /user/billing/transactions/list/export/excel: the Excel file, named. */
  exportExcel(req: BillingTransactionListRequest): Promise<BinaryFile> {
    return this.http.callBinary('billingExportExcel', { body: { ...req, filters: normalizeAndFilters(req.filters) } });
  }
}
