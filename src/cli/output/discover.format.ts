import type { DiscoverResult } from '../../discovery/discovery.service';

/** `cli discover` as text: pipelines with their stages, the fields, the users. */
export function discoverLines(result: DiscoverResult): string[] {
  const lines = [`connection ${result.connection_id} (${result.preset ?? result.connector})`, '', 'Pipelines and stages (id, name, what the CRM says):'];
  for (const pipeline of result.pipelines) {
    lines.push(`  ${pipeline.name} [${pipeline.id}]`);
    for (const stage of pipeline.stages) lines.push(`    ${pad(stage.id, 14)} ${pad(stage.name, 32)} ${stage.outcome}`);
  }
  if (result.pipelines.length === 0) lines.push('  (none)');
  if (result.deal_statuses.length > 0) {
    lines.push('Deal statuses besides the stages:');
    for (const status of result.deal_statuses) lines.push(`    ${pad(status.key, 14)} ${pad(status.name, 32)} ${status.outcome}`);
  }
  for (const [title, fields] of [['Deal fields', result.deal_fields], ['Contact fields', result.contact_fields]] as const) {
    lines.push(`${title} (id, name, type):`);
    for (const field of fields) lines.push(`    ${pad(field.id, 14)} ${pad(field.name, 32)} ${field.type ?? ''}`.trimEnd());
    if (fields.length === 0) lines.push('    (none)');
  }
  lines.push('Users (id, name):');
  for (const user of result.users) lines.push(`    ${pad(user.id, 14)} ${user.name}`);
  return lines;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}
