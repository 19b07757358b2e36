import type { CanonicalRecord, StreamName } from '../../src/connectors/canonical';
import type { ConnectorDefinition, ConnectorSecrets, Page, RejectedInput } from '../../src/connectors/connector-definition';
import { settingsProblems, toSettingsInstance } from '../../src/connectors/settings-validation';

/** Reads a stream through a connector exactly as the engine would, collecting records, rejects and log lines. */

export interface ReadResult {
  records: CanonicalRecord[];
  rejected: RejectedInput[];
  pages: Page[];
  logs: string[];
}

export const FAR_FUTURE = new Date('2100-01-01T00:00:00Z');

export function typedSettings<S extends object>(connector: ConnectorDefinition<S>, plain: unknown): S {
  const problems = settingsProblems(connector.settingsClass, plain, 'settings');
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return toSettingsInstance(connector.settingsClass, plain);
}

export async function readAll<S extends object>(
  connector: ConnectorDefinition<S>,
  stream: StreamName,
  plainSettings: unknown,
  options: { since?: Date | null; until?: Date; connectionId?: string; workDir?: string; limit?: number; secrets?: ConnectorSecrets } = {},
): Promise<ReadResult> {
  const logs: string[] = [];
  const result: ReadResult = { records: [], rejected: [], pages: [], logs };
  const settings = typedSettings(connector, plainSettings);
  const pages = connector.read(
    stream,
    { since: options.since ?? null, until: options.until ?? FAR_FUTURE },
    {
      connectionId: options.connectionId ?? 'test',
      settings,
      state: null,
      workDir: options.workDir,
      secrets: options.secrets,
      limit: options.limit,
      logger: { log: (m) => logs.push(m), warn: (m) => logs.push(`WARN ${m}`) },
    },
  );
  for await (const page of pages) {
    result.pages.push(page);
    result.records.push(...page.records);
    result.rejected.push(...(page.rejected ?? []));
  }
  return result;
}
