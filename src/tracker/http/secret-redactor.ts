import { maskSecretForms, secretForms } from '../../http/secret-forms';

/** Removes one secret (the Api-key) from anything that may end up in an error or a log line, in every form a server echoes it. */
export function secretRedactor(secret: string): (value: unknown) => unknown {
  if (!secret) return (v) => v;
  const mask = '[redacted]';
  const forms = secretForms([secret]);
  const redactText = (text: string) => maskSecretForms(text, forms, mask);
  return (value) => {
    if (value === undefined || value === null) return value;
    if (typeof value === 'string') return redactText(value);
    let text: string;
    try {
      text = JSON.stringify(value);
    } catch {
      return '[unserializable]';
    }
    if (text === undefined) return value;
    // each string on its own: in the JSON text a string's own escapes are escaped once more, past secretForms
    let changed = false;
    const masked = mapStrings(JSON.parse(text), (item) => {
      const out = redactText(item);
      changed ||= out !== item;
      return out;
    });
    return changed ? masked : value;
  };
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [map(key), mapStrings(item, map)]));
}
