import type { Request } from 'express';
import type { AdminRole } from '../../config/admin-tokens';
import { ProjectScope } from '../../application/project-scope';

/** Who a bearer token is: the full admin token (everything), or a scoped token of `admin.tokens` (its projects, its role). */
export type AdminPrincipal =
  | { kind: 'full' }
  | { kind: 'scoped'; name: string; projects: readonly string[]; role: AdminRole };

export const FULL_ACCESS: AdminPrincipal = { kind: 'full' };

/** The principal the guard found for a request (kept beside the request, not on it: nothing serialises it). */
const principals = new WeakMap<Request, AdminPrincipal>();

export function rememberPrincipal(request: Request, principal: AdminPrincipal): void {
  principals.set(request, principal);
}

/** A request the guard did not see has no principal: it sees nothing (fail closed). */
export function scopeOfRequest(request: Request): ProjectScope {
  const principal = principals.get(request);
  if (!principal) return ProjectScope.of([]);
  return principal.kind === 'full' ? ProjectScope.ALL : ProjectScope.of(principal.projects);
}

/** The principal the guard found for a request; null for a request it did not see (fail closed). */
export function principalOfRequest(request: Request): AdminPrincipal | null {
  return principals.get(request) ?? null;
}
