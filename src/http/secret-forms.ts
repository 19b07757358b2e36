/**
 * The forms an HTTP server echoes a secret in, so that every redactor (the connectors', the tracker client's, the
 * scrubber of answers, logs and alerts) masks them all: a CRM's error that quotes the key it refused holds it
 * JSON-escaped (PHP's json_encode writes `/` as `\/` and non-ASCII as `\u00e9`), percent-encoded (as the request
 * carried it), or inside a JSON document held as a string (escaped twice). Exact text only would let them through.
 */

/** Every form of each secret, deduplicated, longest first (a form that holds a shorter one is masked whole). */
export function secretForms(secrets: Iterable<string>): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    for (const json of jsonForms(secret)) {
      forms.add(json);
      // a JSON document carried in a JSON string: its backslashes and quotes escaped once more
      forms.add(jsonEscape(json));
    }
    for (const encoded of [encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2)]) {
      forms.add(encoded);
      forms.add(encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Cuts every form (from secretForms) out of `text`. */
export function maskSecretForms(text: string, forms: readonly string[], mask: string): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(mask);
  return out;
}

/** As is; as JSON.stringify writes it (without its quotes); with `/` as `\/`; with non-ASCII as `\uXXXX` too. */
function jsonForms(secret: string): string[] {
  const json = jsonEscape(secret);
  const slashed = json.replace(/\//g, '\\/');
  const ascii = (text: string) => text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [secret, json, slashed, ascii(json), ascii(slashed)];
}

function jsonEscape(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
