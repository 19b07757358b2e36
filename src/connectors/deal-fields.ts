/**
 * A CRM's deal fields as a flow's `deal_fields` action answers them ([{ key, name }]: the key updates and creates
 * take, and the label users know), and how a field a user names is found among them. Write-back's fields, lead
 * delivery's lead_id_field and fields, and a connector's `check` of them resolve the same way.
 */
export interface DealField {
  key: string;
  name: string;
}

/** The action's answer as fields (entries without a key left out; a field without a label is named by its key). */
export function dealFieldsOf(answer: unknown): DealField[] {
  const list = answer === undefined || answer === null ? [] : Array.isArray(answer) ? answer : [answer];
  return list.flatMap((entry) => {
    const field = (entry ?? {}) as { key?: unknown; name?: unknown };
    if (field.key === undefined || field.key === null || String(field.key).trim() === '') return [];
    const key = String(field.key).trim();
    const name = field.name === undefined || field.name === null || String(field.name).trim() === '' ? key : String(field.name).trim();
    return [{ key, name }];
  });
}

/**
 * The key of the field `wanted` names: an exact key, else a label in any case. Throws naming `setting` (the
 * settings key that names the field) and the CRM's fields.
 */
export function dealFieldKey(fields: DealField[], wanted: string, setting: string): string {
  const found = fields.find((f) => f.key === wanted) ?? fields.find((f) => f.name.toLowerCase() === wanted.toLowerCase());
  if (found) return found.key;
  const known = fields.slice(0, 20).map((f) => (f.key === f.name ? f.key : `${f.name} (${f.key})`)).join(', ');
  throw new Error(`${setting}: the CRM has no deal field "${wanted}" (its fields: ${known}${fields.length > 20 ? ', …' : ''})`);
}
