import type { AddOrdersResponse } from '../../tracker/types/orders.types';

/** The add-orders answer of the service. */
export type AddOrdersResult = AddOrdersResponse;

export function emptyAddOrdersResult(processed: number): AddOrdersResult {
  return {
    uploaded: 0, processed, skipped_by_status: 0, skipped_by_waiting_visit_info: 0, skipped_by_internal_error: 0,
    skipped_because_not_changed: 0, skipped_by_invalid_format: 0, skipped_fields_by_invalid_format: 0, saved: 0,
    comment: '', status: 'success',
  };
}

/** `uploaded` = orders of the request not skipped (a dropped field does not skip its order). */
export function finishAddOrdersResult(result: AddOrdersResult, invalidIds: string[]): AddOrdersResult {
  const skipped = result.skipped_by_status + result.skipped_by_waiting_visit_info + result.skipped_by_internal_error
    + result.skipped_because_not_changed + result.skipped_by_invalid_format;
  result.uploaded = result.processed - skipped;
  result.comment = invalidIds.length > 0 ? `Invalid date_create format in orders: ${invalidIds.join(', ')}` : '';
  return result;
}
