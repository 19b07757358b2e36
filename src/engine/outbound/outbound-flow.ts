import type { ConnectorDefinition, ConnectorSecrets, WriteContext, WriteOutcome } from '../../connectors/connector-definition';
import type { OutboundFlowName } from '../../runs/outbound-flows';
import type { OutboundStore } from '../../store/repositories/outbound.store';
import type { TrackerClient } from '../../tracker/tracker-client';
import type { EngineLogger } from '../engine-logger';

/**
 * An outbound flow: it reads a window from the service and writes into the CRM, only what changed since the
 * last write. A flow says what is particular to it (what it reads, what each item becomes, which connector
 * CRM actions write it, its counters); OutboundRunner (outbound-runner.ts) does the rest the same way for every
 * flow: fingerprints against the store, batches handed to the connector, each answered batch recorded in one
 * transaction, the counters, the dry run.
 *
 * - `Plan`: the connection's settings of the flow (what its connector's settings configure), or none;
 * - `Item`: what the service gives, page by page (write-back: orders with their visits);
 * - `Write`: what one item asks of the CRM (write-back: a DealWrite), written through the connector's CRM actions.
 */
export interface OutboundFlow<Plan extends FlowPlan = FlowPlan, Item = unknown, Write = unknown, Preview = unknown> {
  /** the flow's name: its run's `flow` (and `mode`); its counters are described beside it (`<flow>.description.ts`) */
  readonly name: OutboundFlowName;
  /**
   * its state: the record_state stream that holds the fingerprint of what was last written per item (and its
   * rejections); a flow that needs more names its own repository (`repository`), and a flow whose repository
   * already says which items are done answers `knownDone` instead of keeping fingerprints
   */
  readonly stream: string;
  /** the store repository of its own it keeps more state in, by name, injected as `pass.repositories` (leads: `leads`) */
  readonly repository?: FlowRepositoryName;
  /** its block in a connection's settings (`write_back`, `lead_delivery`, `manager_tasks`): its settings schema lives with the flow */
  readonly settingsKey: string;
  /**
   * the CRM actions it asks for through the connector's CrmActions (src/connectors/crm-actions.ts), those it
   * cannot go without and those it uses when described: every flow asks the CRM this one way
   */
  readonly actions?: { required: readonly string[]; optional?: readonly string[] };
  /** which of the flow's counters an item counts in: unchanged (skipped by fingerprint), written, rejected */
  readonly counting: { unchanged: string; written: string; rejected: string };

  /** The connection's plan for this flow, or null: its connector or settings configure none. */
  planOf(definition: ConnectorDefinition, settings: object): Plan | null;
  /** Why a connection has no plan (its pass and dry run fail with this), naming the connection. */
  noPlan(connectionId: string, definition: ConnectorDefinition): string;
  /** The refusal of a start of the flow for a connection without a plan (the admin API's 400). */
  notConfigured(connectionId: string): string;

  /** The service's window, page by page. */
  read(pass: FlowPass<Plan>): AsyncIterable<Item[]>;
  /** Per item of a page: what to write, with the fingerprint of what that writes (items left out write nothing). */
  planItems(items: Item[], pass: FlowPass<Plan>): Promise<PlannedWrite<Write>[]>;
  /**
   * Of these items, those already done, when the flow's own repository keeps that (leads: their `lead_delivery`
   * rows): the runner then counts them `counting.unchanged` and writes no fingerprints for the flow (its record is
   * one, its own). Absent: the runner compares fingerprints in record_state.
   */
  knownDone?(ids: string[], pass: FlowPass<Plan>): Promise<Set<string>>;
  /** Writes the changed items through the connector's CRM actions; its outcomes batch by batch, one per item. */
  write(writes: Write[], pass: FlowPass<Plan>, context: WriteContext): AsyncIterable<WriteOutcome[]>;
  /** The counter an item the CRM took counts in, when not always `counting.written` (leads: created or attached). */
  writtenCounter?(outcome: Extract<WriteOutcome, { status: 'written' }>): string;
  /** The rejected record of an item the CRM refused. */
  refusal(outcome: Extract<WriteOutcome, { status: 'rejected' }>): { field: string; reason: string };
  /** The dry run's answer: what would be written where (it may read more to say so: manager tasks name the managers). */
  preview(planned: PlannedWrite<Write>[], pass: FlowPass<Plan>): Preview | Promise<Preview>;
  /**
   * What a pass would cost the service, in requests and in time at its limits, before it is spent (the CLI shows
   * it and asks before a costly pass). A flow whose reads cost little has none.
   */
  estimate?(pass: FlowPass<Plan>): Promise<FlowEstimate>;
  /**
   * `check` of the connection (optional): reach the CRM and resolve what the plan names (fields, pipeline, …)
   * through the connector's actions; the message says what was found, a throw names the key of what was not.
   */
  check?(plan: Plan, definition: ConnectorDefinition, context: WriteContext): Promise<string>;
}

/** One way a pass can read what it needs from the service, and what that costs. */
export interface FlowCost {
  /** a name for scripts (`order_info`, `order_pages`) */
  way: string;
  /** the way in words: 'order info for 5 deals, their visits from the visit list' */
  text: string;
  /** requests the pass sends to the service, those already sent to plan it included */
  requests: number;
  /** how long they take at the service's limits (Limits table, the installation's share of the project budget) */
  seconds: number;
}

/** A pass's plan: what it reads, the way it takes (the cheapest) and the ways it does not. */
export interface FlowEstimate {
  /** what the pass has to read, in words */
  summary: string;
  chosen: FlowCost;
  others: FlowCost[];
  /** the plan has something to weigh (false: one request already read everything) */
  worthShowing: boolean;
}

/** The repositories a flow may keep state of its own in, by name (OutboundStore's): a new one is added here. */
export type FlowRepositories = Pick<OutboundStore, 'leads'>;
export type FlowRepositoryName = keyof FlowRepositories;

/** How far a pass is: units done of the total (pages of a list, deals looked up). */
export interface FlowProgress {
  done: number;
  total: number;
  unit: 'pages' | 'deals';
}

/** What every flow's plan has: its own schedule, or none (then it follows each successful sync of the connection). */
export interface FlowPlan {
  schedule?: string;
}

/** One item a flow wants written: its id (the key of its fingerprint), what goes to the CRM, and the fingerprint. */
export interface PlannedWrite<Write> {
  id: string;
  write: Write;
  fingerprint: string;
}

/** One pass of a flow over one connection: what it reads with, its plan, its counters so far. */
export interface FlowPass<Plan extends FlowPlan = FlowPlan> {
  connectionId: string;
  definition: ConnectorDefinition;
  settings: object;
  plan: Plan;
  tracker: TrackerClient;
  /** reads only: the runner records what was written */
  store: Pick<OutboundStore, 'fingerprints' | 'known' | 'acknowledgedSince'>;
  /** the flow's own repository, by the name its `repository` gives: the one store a flow writes itself */
  repositories?: Partial<FlowRepositories>;
  /** the run's id (null in a dry run) */
  runId?: number | null;
  logger: EngineLogger;
  signal?: AbortSignal;
  now: Date;
  /** the flow's counters (every name its description gives, at 0 to begin with) */
  counters: Record<string, number>;
  workDir?: string;
  secrets?: ConnectorSecrets;
  /** where the flow reports how far its read is (a run's progress events), when someone follows it */
  progress?: (progress: FlowProgress) => void;
  /** what the connector's `open` returned for this pass (WriteContext.session) */
  session?: unknown;
}
