/** A request about to be sent; authenticators add headers, query parameters or a path prefix. */
export interface OutgoingRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  body?: unknown;
}

export interface Authenticator {
  apply(request: OutgoingRequest): Promise<void> | void;
  /** After a 401: forget cached credentials. True when fetching new ones may help (then the request is retried once). */
  invalidate?(): Promise<boolean> | boolean;
}
