import type { PromptObject } from 'prompts';

/** The user pressed Ctrl-C or Esc at a question: nothing is written. */
export class InitCancelled extends Error {
  constructor() {
    super('init cancelled: nothing was written');
  }
}

/** One question; Ctrl-C or Esc cancels the whole init. */
export async function ask<T>(question: PromptObject): Promise<T> {
  let cancelled = false;
  // required here: only an interactive init asks, and every other command's process goes without it
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const prompts = require('prompts') as typeof import('prompts');
  const answer = await prompts(question, { onCancel: () => { cancelled = true; } });
  if (cancelled || answer.value === undefined) throw new InitCancelled();
  return answer.value as T;
}
