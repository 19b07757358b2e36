import type { ConnectorDefinition, DealWrite, WriteContext, WriteOutcome } from '../../src/connectors/connector-definition';
import type { FlowPass } from '../../src/engine/outbound/outbound-flow';
import { writeBackFlow } from '../../src/engine/outbound/flows/write-back/write-back.flow';

/**
 * Write-back's write of these deals as a pass hands them to the connector: the flow's plan of the settings, the
 * connector's CRM actions (`update_deals`, `deal_fields`) within a session of its own. The outcomes batch by batch.
 */
export async function* writeDeals(connector: ConnectorDefinition, deals: DealWrite[], context: WriteContext<object>): AsyncGenerator<WriteOutcome[]> {
  const session = await connector.open?.(context.settings, context);
  try {
    const plan = writeBackFlow.planOf(connector, context.settings);
    if (!plan) throw new Error(`connection ${context.connectionId}: no write-back plan`);
    const pass = { connectionId: context.connectionId, definition: connector, settings: context.settings, plan, logger: context.logger } as unknown as FlowPass<typeof plan>;
    yield* writeBackFlow.write(deals, pass, { ...context, session });
  } finally {
    if (session !== undefined) await connector.close?.(session);
  }
}
