import type { CheckResult, ConnectorDefinition, ReadContext, WriteContext } from '../../../connectors/connector-definition';
import { OUTBOUND_FLOW_IMPLEMENTATIONS } from './registry';

/**
 * `check` of a connection's outbound flows: each flow its settings switch on that can check itself (write-back's
 * fields, lead delivery's pipeline, stage, user and fields) reaches the CRM through the connector's actions, within
 * one session of the connector. The first that fails is the answer (its message names the key); else their
 * messages joined by "; " (empty when no flow checks anything).
 */
export async function checkFlows(definition: ConnectorDefinition, settings: object, context: WriteContext): Promise<CheckResult> {
  const flows = Object.values(OUTBOUND_FLOW_IMPLEMENTATIONS).filter((flow) => flow.check);
  let session: unknown;
  const parts: string[] = [];
  try {
    for (const flow of flows) {
      const plan = flow.planOf(definition, settings);
      if (!plan) continue;
      if (session === undefined && context.session === undefined) session = (await definition.open?.(settings, context)) ?? null;
      parts.push(await flow.check!(plan, definition, { ...context, settings, session: context.session ?? session ?? undefined }));
    }
    return { ok: true, message: parts.join('; ') };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  } finally {
    if (session !== undefined && session !== null) await definition.close?.(session);
  }
}

/**
 * A connection's whole `check`: the connector's own (the source answers, the credentials hold), then its flows'
 * (checkFlows) when that passed. The connector's warnings and uncovered stages are kept either way; the messages
 * are joined by "; " (a part's closing full stop dropped).
 */
export async function checkConnection(definition: ConnectorDefinition, settings: object, context: Omit<ReadContext, 'state'>): Promise<CheckResult> {
  const source = await definition.check(settings, context);
  if (!source.ok) return source;
  const flows = await checkFlows(definition, settings, { ...context, settings, logger: { log: () => {}, warn: () => {} } });
  const { warnings, uncovered_stages } = source;
  const kept = { ...(warnings ? { warnings } : {}), ...(uncovered_stages ? { uncovered_stages } : {}) };
  if (!flows.ok) return { ...flows, ...kept };
  return { ...source, message: [source.message, flows.message].filter(Boolean).map((part) => part.replace(/\.\s*$/, '')).join('; ') };
}
