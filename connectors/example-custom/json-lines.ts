import * as fs from 'fs';
import * as readline from 'readline';

/** One parsed line of the file, with its line number for messages. */
export interface SourceLine {
  line: number;
  text: string;
  value?: Record<string, unknown>;
  error?: string;
}

/** Streams the file line by line: a large export never sits in memory whole. */
export async function* readJsonLines(path: string): AsyncGenerator<SourceLine> {
  const lines = readline.createInterface({ input: fs.createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) yield { line, text, error: 'the line is not a JSON object' };
      else yield { line, text, value: value as Record<string, unknown> };
    } catch (error) {
      yield { line, text, error: `the line is not valid JSON (${(error as Error).message})` };
    }
  }
}
