/** Removes one secret (the Api-key) from anything that may end up in an error or a log line. */
export function secretRedactor(secret: string): (value: unknown) => unknown {
  if (!secret) return (v) => v;
  const mask = '[redacted]';
  return (value) => {
    if (value === undefined || value === null) return value;
    if (typeof value === 'string') return value.split(secret).join(mask);
    let text: string;
    try {
      text = JSON.stringify(value);
    } catch {
      return '[unserializable]';
    }
    if (text === undefined || !text.includes(secret)) return value;
    // A key can be spliced into JSON text safely only when it needs no escaping.
    const escaped = JSON.stringify(secret).slice(1, -1);
    return JSON.parse(text.split(escaped).join(mask));
  };
}
