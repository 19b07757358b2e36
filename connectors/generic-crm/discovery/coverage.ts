import type { SourceCatalog, StageMapping } from 'tracker-sync/connector';
import { mappedStatus } from '../records/status-map';
import { GenericCrmSettings } from '../settings';
import { resolveSource } from '../source-config';
import { loadStageCounts } from './stage-counts';

/**
 * The connection's status_map against the CRM's stages: each stage's target (null where no key covers it),
 * and how many deals of the last run were in it. A deal in an uncovered stage is sent with the stage itself
 * as its status, which the service skips unless the project happens to know it.
 */
export function stageMapping(settings: GenericCrmSettings, catalog: SourceCatalog, workDir: string | undefined): StageMapping {
  const map = resolveSource(settings).status_map;
  const counts = loadStageCounts(workDir);
  const stages: StageMapping['stages'] = [];
  const seen = new Map<string, StageMapping['stages'][number]>();
  const add = (pipeline: string | null, id: string, name: string, outcome: 'won' | 'lost' | 'open') => {
    const shared = seen.get(id);
    if (shared) {
      // one stage id in several pipelines (amoCRM's won 142 and lost 143): one row, its deals counted once
      if (pipeline) shared.pipeline = shared.pipeline ? `${shared.pipeline}, ${pipeline}` : pipeline;
      return;
    }
    const status = mappedStatus(map, id) ?? null;
    const row = { pipeline, id, name, outcome, status, deals_last_run: counts?.deals[id] ?? 0 };
    stages.push(row);
    seen.set(id, row);
  };
  for (const pipeline of catalog.pipelines) for (const stage of pipeline.stages) add(pipeline.name, stage.id, stage.name, stage.outcome);
  for (const status of catalog.deal_statuses) if (!seen.has(status.key)) add(null, status.key, status.name, status.outcome);
  return { stages, last_run: counts };
}

/**
 * `check`'s warning about the source itself: a visit_field the CRM's deal fields lack. (Stages no status_map key
 * covers are facts of the stage mapping, which `check` hands over; whether they matter depends on the connection's
 * `statuses` mode, so the application words that warning.)
 */
export function mappingWarnings(settings: GenericCrmSettings, catalog: SourceCatalog): string[] {
  const source = resolveSource(settings);
  const visitField = source.visit_field;
  const warnings: string[] = [];
  const known = catalog.deal_fields.some((f) => f.id === visitField || f.name.toLowerCase() === visitField.toLowerCase());
  if (catalog.deal_fields.length > 0 && !known) {
    warnings.push(`visit_field ${JSON.stringify(visitField)} is not a deal field of the CRM: every deal is sent without a visit number (see \`cli discover\` for the fields)`);
  }
  return [...warnings, ...unknownStageKeys(source.status_map, catalog)];
}

/** status_map keys (exact ones; patterns may match stages to come) that are no stage the CRM lists: a typo maps nothing. */
function unknownStageKeys(map: Record<string, string> | undefined, catalog: SourceCatalog): string[] {
  const stages = new Set([...catalog.pipelines.flatMap((p) => p.stages.map((s) => s.id)), ...catalog.deal_statuses.map((s) => s.key)]);
  if (!map || stages.size === 0) return [];
  return Object.keys(map)
    .filter((key) => !key.includes('*') && !stages.has(key))
    .map((key) => `status_map key ${JSON.stringify(key)} is no stage of the CRM: no deal is mapped by it (its stages: ${[...stages].slice(0, 20).join(', ')}${stages.size > 20 ? ', …' : ''}; see \`cli discover\`)`);
}
