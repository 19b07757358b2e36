/** Reads the config file and parses it, reporting YAML mistakes by line and column. */
import { readFileSync } from 'fs';
import { LineCounter, parseDocument } from 'yaml';
import { ConfigError } from './config-error';
import { ConfigLocation } from './config-location';
import { isSecretKey, REDACTED } from './redact';

/** The parsed file, or undefined when the default file does not exist (all defaults apply). */
export function readYamlConfig(location: ConfigLocation): unknown {
  const text = readText(location);
  return text === undefined ? undefined : parseYaml(text, location.path);
}

function readText({ path, source }: ConfigLocation): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && source === 'default') return undefined;
    const reason = code === 'ENOENT' ? 'file not found' : (error as Error).message;
    const named = source === 'default' ? '' : ` (named by ${source})`;
    throw new ConfigError([`cannot read config file ${path}${named}: ${reason}`], path);
  }
}

export function parseYaml(text: string, file?: string): unknown {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  if (document.errors.length > 0) {
    const lines = text.split(/\r?\n/);
    const problems = document.errors.map((error) => {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      const source = redactLine(lines[line - 1]?.trim());
      return `line ${line}, column ${col}: ${error.message}${source ? ` (${JSON.stringify(source)})` : ''}`;
    });
    throw new ConfigError(problems, file);
  }
  return document.toJS();
}

/** The quoted source line must not leak `api_key: "abc...` when that is the broken line. */
function redactLine(line: string | undefined): string | undefined {
  const pair = line?.match(/^(-?\s*["']?([\w-]+)["']?\s*:\s*)(\S.*)$/);
  return pair && isSecretKey(pair[2]) ? `${pair[1]}${REDACTED}` : line;
}
