import type { ConnectorDefinition, ConnectorSecrets } from '../../connectors/connector-definition';
import { errorText } from '../engine-errors';
import type { EngineLogger } from '../engine-logger';

export interface SessionInputs {
  definition: ConnectorDefinition;
  settings: object;
  connectionId: string;
  logger: EngineLogger;
  signal?: AbortSignal;
  workDir?: string;
  secrets?: ConnectorSecrets;
}

/**
 * A run's connector session: the connector's optional `open` before the run's first read or write, its `close`
 * after the last, whatever the outcome (a failing close is logged, it does not change the run's outcome).
 */
export async function withConnectorSession<T>(inputs: SessionInputs, body: (session: unknown) => Promise<T>): Promise<T> {
  const { definition, settings, logger } = inputs;
  const session = definition.open
    ? await definition.open(settings, {
        connectionId: inputs.connectionId, settings, signal: inputs.signal, workDir: inputs.workDir, secrets: inputs.secrets,
        logger: { log: logger.log, warn: logger.warn, debug: logger.debug },
      })
    : undefined;
  try {
    return await body(session);
  } finally {
    if (definition.close) {
      await Promise.resolve()
        .then(() => definition.close!(session))
        .catch((error: unknown) => logger.warn(`connector ${definition.name}: closing the run's session failed: ${errorText(error)}`));
    }
  }
}
