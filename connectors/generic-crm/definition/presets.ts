import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { deepMerge, resolveExtends } from './merge';
import { isPlainObject } from './validators';

/**
 * Presets are YAML files shipped with the connector (presets/<name>.yaml). `_common.yaml` holds
 * `defaults` merged under every preset and `definitions` any preset may `extends:`.
 */

const cache = new Map<string, Record<string, unknown>>();

/** tsc does not copy YAML to dist/, so a compiled connector reads the presets from the source tree. */
export function presetsFolder(): string {
  const candidates = [
    path.join(__dirname, '..', 'presets'),
    path.resolve(__dirname, '../../../../connectors/generic-crm/presets'),
  ];
  const found = candidates.find((folder) => fs.existsSync(path.join(folder, '_common.yaml')));
  if (!found) throw new Error(`generic-crm presets folder not found (looked in ${candidates.join(', ')})`);
  return found;
}

/** Every presets/<name>.yaml is a preset: adding a CRM needs no code. */
export function availablePresets(): string[] {
  return fs
    .readdirSync(presetsFolder())
    .filter((file) => file.endsWith('.yaml') && !file.startsWith('_'))
    .map((file) => file.replace(/\.yaml$/, ''))
    .sort();
}

function readYaml(file: string): Record<string, unknown> {
  const parsed: unknown = parse(fs.readFileSync(file, 'utf8'), { merge: true });
  if (!isPlainObject(parsed)) throw new Error(`${file}: expected a YAML mapping`);
  return parsed;
}

/** The preset as settings (without base_url/token), with _common defaults and `extends` resolved. */
export function loadPreset(name: string | undefined): Record<string, unknown> {
  const key = name ?? '';
  const cached = cache.get(key);
  if (cached) return cached;
  const folder = presetsFolder();
  const common = readYaml(path.join(folder, '_common.yaml'));
  const preset = name ? readYaml(path.join(folder, `${name}.yaml`)) : {};
  const definitions = { ...asObject(common.definitions), ...asObject(preset.definitions) };
  const { definitions: _unused, ...presetBody } = preset;
  const defaults = resolveExtends(asObject(common.defaults), definitions, '_common.defaults');
  const resolved = deepMerge(defaults, resolveExtends(presetBody, definitions, name)) as Record<string, unknown>;
  cache.set(key, resolved);
  return resolved;
}

function asObject(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}
