import { StatusResponse } from './common.types';

/** Body of manager/add: phone or email must be given. */
export interface ManagerInput {
  /** CRM id. */
  id: string;
  name: string;
  phone?: string | null;
  email?: string | null;
}

export interface ManagerUpdate {
  id: string;
  name?: string;
  phone?: string | null;
  email?: string | null;
}

/** Manager in the list. */
export interface Manager {
  id: number;
  name: string;
  email: string;
  phone: string;
}

export interface ManagerListResponse extends StatusResponse {
  data: Manager[];
  total: number;
}
