import type { Request } from 'express';

/** What the auth guard attaches to a request. */
export interface SandboxRequestContext {
  apiKey: string;
  projectId?: number;
}

export type SandboxRequest = Request & { sandbox?: SandboxRequestContext };
