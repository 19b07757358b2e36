import type { WriteContext } from './connector-definition';

/**
 * The one way an outbound flow asks a CRM for something (issue 40): named actions — find, create, update, note —
 * each a request the connector knows how to send. A flow names the actions it needs (its description's
 * `actions`); the connector serves them from the flow's settings block (`settings.<flow key>.actions` for the
 * generic CRM, whose presets ship them), so a new flow needs no connector code.
 *
 * A look-up (an action that reads) answers every page of its matches, retried as reads are; a write is sent once:
 * an answer that may hide a write that landed (timeout, dropped connection, 5xx) throws UnknownOutcomeError
 * (lead-delivery.ts) and the flow looks it up before it sends it again; an update (it sets values: sending it twice
 * changes nothing) may be retried as reads are; the CRM refusing the record throws CrmActionRefusedError with the
 * CRM's reason. Write-back, lead delivery and manager tasks all ask this way (connectors/README.md).
 */
export interface CrmActions {
  /** the action is described (a flow's optional actions) */
  has(name: string): boolean;
  /** whether the action reads (its matches page by page) or writes (a create sent once, or an update) */
  reads(name: string): boolean;
  /**
   * Runs the action with these template variables: a look-up answers the items of every page (what its `answer`
   * selects, concatenated), a create what its `answer` selects (an id), an update what its `answer` selects (the
   * items the CRM refused inside its answer). Throws naming the connection and the action.
   */
  run(name: string, variables: Record<string, unknown>): Promise<unknown>;
  /**
   * A look-up's matches page by page (what its `answer` selects of each page), for a flow that reads each page's
   * hits further with another action taking at most a page of ids (lead delivery's find_deals, then read_deals).
   * Absent: `run`'s one list is the one page.
   */
  pages?(name: string, variables: Record<string, unknown>): Promise<unknown[][]>;
  /**
   * How many items one request of this action takes (an update of many deals at once: its `deals` variable);
   * absent or 1: one item a request.
   */
  batchSize?(name: string): number;
  /**
   * The settings key that describes the action, for messages (`lead_delivery.requests.create_deal`); absent:
   * `<flow key>.actions.<name>`.
   */
  setting?(name: string): string;
}

/** A connector's CRM actions (optional): ConnectorDefinition.actions. */
export interface CrmActionsCapability<S = unknown> {
  /**
   * The connection's settings block of a flow (`key`: the flow's settings key, e.g. `manager_tasks`) as the
   * connector resolves it (a preset's part under the user's), or null when the user's settings do not set it:
   * then the flow does not run for the connection.
   */
  block(settings: S, key: string): Record<string, unknown> | null;
  /** The block's actions within a pass's session (context.session): the requests share its token and limiter. */
  open(key: string, context: WriteContext<S>): CrmActions;
  /**
   * The keys of the user's settings that are flow blocks (a key whose resolved block has `actions`): the host
   * leaves them out of the settings class's validation, and each flow checks its own block when it plans.
   */
  flowKeys(settings: object): string[];
}

/**
 * The CRM refused an action on a record (a 4xx with its reason): the item is rejected, the pass goes on.
 * `reason`: the CRM's own words (`HTTP 422: stage is closed`), for a flow that words the refusal itself.
 */
export class CrmActionRefusedError extends Error {
  constructor(message: string, readonly field: string, readonly reason = message, readonly status?: number) {
    super(message);
    this.name = 'CrmActionRefusedError';
  }
}
