import { TrackerHttp } from '../http/tracker-http';
import {
  ChannelListResponse,
  ExpenseAddRequest,
  ExpenseAddResponse,
  ExpenseListResponse,
  ExpenseUpdateRequest,
} from '../types/channels.types';
import { StatusResponse } from '../types/common.types';

/** Marketing channels and their expenses. */
export class ChannelsClient {
  constructor(private readonly http: TrackerHttp) {}

  /** POST /project/analytics/source/list */
  list(): Promise<ChannelListResponse> {
    return this.http.call('channelsList', { body: {} });
  }

  /** POST /project/analytics/source/cost/list (a top-level array). */
  listExpenses(): Promise<ExpenseListResponse> {
    return this.http.call('expensesList', { body: {} });
  }

  /** POST /project/analytics/source/cost/add */
  addExpense(req: ExpenseAddRequest): Promise<ExpenseAddResponse> {
    return this.http.call('expensesAdd', { body: req });
  }

  /** POST /project/analytics/source/cost/update */
  updateExpense(req: ExpenseUpdateRequest): Promise<StatusResponse> {
    return this.http.call('expensesUpdate', { body: req });
  }

  /** POST /project/analytics/source/cost/delete */
  deleteExpense(id: number): Promise<StatusResponse> {
    return this.http.call('expensesDelete', { body: { id } });
  }
}
