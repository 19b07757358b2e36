import { ConfigError, validateConfig } from '../../src/config';

/** The problems validateConfig lists for a document (no environment), or [] when it loads. */
export function configProblems(document: unknown): string[] {
  try {
    validateConfig(document, { env: {} });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}
