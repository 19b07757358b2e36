import { Document, isScalar, Pair, Scalar, YAMLMap } from 'yaml';
import type { DiscoverResult } from './discovery.service';

/**
 * The proposal as YAML with a comment on each stage (pipeline, name, what the CRM says), for the terminal and
 * for `init`, which puts these nodes into the config file. Keys and ids are quoted strings, as settings expect.
 */
export function proposedSettingsNodes(doc: Document, result: DiscoverResult, statusMap = result.proposed.status_map): Pair[] {
  const labels = stageLabels(result);
  const map = new YAMLMap();
  for (const [stage, status] of Object.entries(statusMap)) {
    const value = quoted(doc, status);
    value.comment = ` ${labels.get(stage) ?? stage} → ${groupOf(result, status)}`;
    map.add(new Pair(quoted(doc, stage), value));
  }
  const pairs: Pair[] = [new Pair(doc.createNode('status_map'), map)];
  const visit = result.proposed.visit_field;
  if (visit !== null) {
    const value = quoted(doc, visit);
    const field = result.deal_fields.find((f) => f.id === visit);
    if (field && field.name !== visit) value.comment = ` ${field.name}`;
    pairs.push(new Pair(doc.createNode('visit_field'), value));
  }
  return pairs;
}

/** The whole proposal as text to paste under a connection's `settings:` (write_back and lead_delivery commented out). */
export function proposalText(result: DiscoverResult): string {
  const doc = new Document({});
  const root = doc.contents as YAMLMap;
  for (const pair of proposedSettingsNodes(doc, result)) root.add(pair);
  const s = result.project_statuses;
  root.commentBefore = [
    ` project statuses: paid "${s.paid}", canceled "${s.canceled}", in work "${s.progress}"`,
    s.source === 'project' ? ' (from the project\'s status list)' : ' (the project lists none: the service\'s defaults)',
  ].join('');
  let text = doc.toString({ lineWidth: 0 });
  const optional: string[] = [];
  if (result.proposed.write_back) {
    optional.push('# write_back (optional: the visit\'s attribution written into these deal fields after each sync):');
    optional.push(...commented({ write_back: result.proposed.write_back }));
  }
  if (result.proposed.lead_delivery) {
    optional.push('# lead delivery: the pipeline, stage and lead-id field found for new leads:');
    optional.push(...commented({ lead_delivery: result.proposed.lead_delivery }));
  }
  if (optional.length) text += optional.join('\n') + '\n';
  return text;
}

function commented(value: unknown): string[] {
  return new Document(value).toString({ lineWidth: 0 }).trimEnd().split('\n').map((line) => `# ${line}`);
}

function quoted(doc: Document, text: string): Scalar {
  const node = doc.createNode(String(text)) as Scalar;
  if (isScalar(node)) node.type = Scalar.QUOTE_DOUBLE;
  return node;
}

function stageLabels(result: DiscoverResult): Map<string, string> {
  const labels = new Map<string, string>();
  for (const pipeline of result.pipelines) {
    for (const stage of pipeline.stages) {
      const label = `${pipeline.name}: ${stage.name} (${stage.outcome})`;
      labels.set(stage.id, labels.has(stage.id) ? `${labels.get(stage.id)}; ${label}` : label);
    }
  }
  for (const status of result.deal_statuses) if (!labels.has(status.key)) labels.set(status.key, `${status.name} (${status.outcome})`);
  return labels;
}

function groupOf(result: DiscoverResult, status: string): string {
  const s = result.project_statuses;
  const group = status === s.paid ? 'paid' : status === s.canceled ? 'canceled' : status === s.progress ? 'in work' : 'status';
  const name = s.statuses.find((item) => item.id === status)?.name;
  return name ? `${group} "${name}"` : group;
}
