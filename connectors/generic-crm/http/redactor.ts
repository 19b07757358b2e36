/** Removes secrets (tokens, client secrets, webhook codes) from any text we log or throw. */
export class Redactor {
  private readonly secrets = new Set<string>();

  add(...values: (string | undefined | null)[]): void {
    // Very short values would blank out ordinary text; real secrets are longer.
    for (const value of values) if (value && value.length >= 4) this.secrets.add(value);
  }

  redact(text: string): string {
    let result = text;
    for (const secret of this.secrets) {
      result = result.split(secret).join('***');
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret) result = result.split(encoded).join('***');
    }
    return result;
  }
}
