/** Successful answers carry `status: "success"` after their own keys (Conventions 5). */
export function success<T extends object>(body: T = {} as T): T & { status: 'success' } {
  return { ...body, status: 'success' };
}
