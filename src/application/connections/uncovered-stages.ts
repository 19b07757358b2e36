import type { StageMapping } from '../../connectors/connector-definition';

/**
 * `check`'s warning for a connection with `statuses: map`: the source's stages no status_map key covers. A deal in
 * such a stage is sent with the stage id itself as its status, which the service skips unless the project happens
 * to know it. (With `statuses: register` every stage is sent as itself on purpose and registered first: no warning.)
 */
export function uncoveredStagesWarnings(uncovered: StageMapping['stages'] = []): string[] {
  if (uncovered.length === 0) return [];
  const list = uncovered.map((s) => `${JSON.stringify(s.id)} (${s.pipeline ? `${s.pipeline}: ` : ''}${s.name}${s.deals_last_run ? `, ${s.deals_last_run} deals in the last run` : ''})`);
  return [`status_map covers no entry for ${uncovered.length} stage${uncovered.length > 1 ? 's' : ''}: ${list.join(', ')}; `
    + 'their deals are sent with the stage id as status (see `cli discover`)'];
}
