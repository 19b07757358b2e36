import { maskSecretForms, secretForms } from 'tracker-sync/connector';

/** Removes secrets (tokens, client secrets, webhook codes) from any text we log or throw, in every form a CRM echoes them. */
export class Redactor {
  private readonly secrets = new Set<string>();
  /** secretForms of the secrets, made again when one is added */
  private forms: string[] | null = null;

  add(...values: (string | undefined | null)[]): void {
    // Very short values would blank out ordinary text; real secrets are longer.
    for (const value of values) if (value && value.length >= 4 && !this.secrets.has(value)) {
      this.secrets.add(value);
      this.forms = null;
    }
  }

  redact(text: string): string {
    this.forms ??= secretForms(this.secrets);
    return maskSecretForms(text, this.forms, '***');
  }
}
