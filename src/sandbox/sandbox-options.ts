/** How a sandbox instance runs. */
export interface SandboxOptions {
  /** SQLite file path, or ':memory:'. */
  db: string;
  seed?: 'demo' | 'none';
  /** Key of the demo project; generated when absent. */
  apiKey?: string;
  /** How many projects the key owns: 1..N (default 1); the demo seed fills project 1 only. */
  projects?: number;
  /** 'on' (default) applies the service's per-project budget and per-operation limits. */
  budget?: 'on' | 'off';
  /** Fraction 0..1 of requests answered with an injected fault. */
  faults?: number;
  /** Fixed delay added to every request, ms. */
  latencyMs?: number;
  /** The client's timeout, ms; the 'delay' fault waits past it. */
  clientTimeoutMs?: number;
}

export const SANDBOX_OPTIONS = 'SANDBOX_OPTIONS';
