import { DataSource, EntityManager } from 'typeorm';
import { RequestBudgetEntity } from '../entities/request-budget.entity';
import { SerialWriter } from '../serial-writer';

type Params = Record<string, unknown>;

/** Send times handed out by a spacing window: `count` of them, `spacingMs` apart from `first`. */
export interface SlotGrant {
  first: number;
  spacingMs: number;
  count: number;
}

/** A count window after a take: whether it was granted, and what the window holds now. */
export interface CountGrant {
  granted: boolean;
  periodStart: number;
  used: number;
  prevUsed: number;
}

export interface BudgetRow {
  window_name: string;
  next_at: number;
  penalty_until: number;
  period_start: number;
  used: number;
  prev_used: number;
}

/**
 * The rows of the shared request budget (RequestBudgetEntity). Every take is ONE conditional UPDATE, so it is
 * atomic across processes and machines without holding anything: on PostgreSQL the UPDATE locks the row and
 * re-checks its WHERE after a concurrent commit, and RETURNING gives the result in the same round trip; on SQLite
 * the UPDATE and the read of its result share one write transaction of the serial writer.
 * The caller's clock is used (as for leases): the daemons' clocks must agree to well under a second.
 */
export class RequestBudgetStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: SerialWriter,
  ) {}

  /** Creates the windows' rows when missing (a new project, a new operation limit). */
  async ensure(scope: string, windows: string[]): Promise<void> {
    await this.writer.run((m) =>
      m.createQueryBuilder().insert().into(RequestBudgetEntity)
        .values(windows.map((window_name) => ({ scope, window_name, next_at: 0, penalty_until: 0, period_start: 0, used: 0, prev_used: 0 })))
        .orIgnore().execute(),
    );
  }

  /**
   * Reserves `count` send times of a spacing window: from the later of now and its next free time, `spacingMs`
   * apart (twice that while a 429 penalty lasts). Always granted: the caller sleeps until its times.
   * `at` left out: the clock when the statement's turn comes (after the writer's queue and the write lock), so
   * that times are not handed out in the past, to go at once together.
   */
  async reserve(scope: string, window: string, spacingMs: number, count: number, at?: number): Promise<SlotGrant> {
    let now = at ?? Date.now();
    const row = await this.updateReturning(
      `UPDATE request_budget SET next_at = ${this.max('next_at', 'CAST(@now AS double precision)')}
         + CAST(@span AS double precision) * (CASE WHEN penalty_until > CAST(@now AS double precision) THEN 2 ELSE 1 END)
       WHERE scope = @scope AND window_name = @window`,
      () => ({ now: (now = at ?? Date.now()), span: spacingMs * count, scope, window }),
      scope,
      window,
    );
    if (!row) throw new Error(`request budget: no row for ${window} of ${scope}`);
    const factor = row.penalty_until > now ? 2 : 1;
    const step = spacingMs * factor;
    return { first: row.next_at - step * count, spacingMs: step, count };
  }

  /**
   * Takes `count` from a count window of `periodMs` (clock-aligned periods) whose cap is `cap` over a sliding
   * period: this period's requests plus the previous period's, weighed by the share of it the sliding period
   * still covers. Rolls the period over in the same statement. Refused (granted false) when it would go over.
   */
  async take(scope: string, window: string, periodMs: number, cap: number, count: number, now: number): Promise<CountGrant> {
    const cur = Math.floor(now / periodMs) * periodMs;
    const weight = 1 - (now - cur) / periodMs;
    const thisUsed = `(CASE WHEN period_start = CAST(@cur AS double precision) THEN used ELSE 0 END)`;
    const prevUsed = `(CASE WHEN period_start = CAST(@cur AS double precision) THEN prev_used
      WHEN period_start = CAST(@prev AS double precision) THEN used ELSE 0 END)`;
    const params = { cur, prev: cur - periodMs, count, weight, cap, scope, window };
    const row = await this.updateReturning(
      `UPDATE request_budget SET prev_used = ${prevUsed}, used = ${thisUsed} + CAST(@count AS integer),
         period_start = CAST(@cur AS double precision)
       WHERE scope = @scope AND window_name = @window
         AND ${thisUsed} + CAST(@count AS integer) + ${prevUsed} * CAST(@weight AS double precision) <= CAST(@cap AS double precision)`,
      params,
      scope,
      window,
    );
    if (row) return { granted: true, periodStart: row.period_start, used: row.used, prevUsed: row.prev_used };
    const current = await this.row(scope, window);
    const same = current?.period_start === cur;
    const previous = current?.period_start === cur - periodMs;
    return { granted: false, periodStart: cur, used: same ? current!.used : 0, prevUsed: same ? current!.prev_used : previous ? current!.used : 0 };
  }

  /** A 429: nobody sends before `waitUntil`, and the spacing doubles until `shrinkUntil`. */
  async penalize(scope: string, window: string, waitUntil: number, shrinkUntil: number): Promise<void> {
    await this.updateReturning(
      `UPDATE request_budget SET next_at = ${this.max('next_at', 'CAST(@wait AS double precision)')},
         penalty_until = ${this.max('penalty_until', 'CAST(@shrink AS double precision)')}
       WHERE scope = @scope AND window_name = @window`,
      { wait: waitUntil, shrink: shrinkUntil, scope, window },
      scope,
      window,
    );
  }

  async row(scope: string, window: string): Promise<BudgetRow | null> {
    const rows = await this.dataSource.query(...this.bind('SELECT * FROM request_budget WHERE scope = @scope AND window_name = @window', { scope, window }));
    return rows[0] ? numeric(rows[0]) : null;
  }

  private get postgres(): boolean {
    return this.dataSource.options.type === 'postgres';
  }

  private max(a: string, b: string): string {
    return this.postgres ? `GREATEST(${a}, ${b})` : `MAX(${a}, ${b})`;
  }

  /** The row after the UPDATE, or null when its WHERE matched nothing. */
  private async updateReturning(sql: string, params: Params | (() => Params), scope: string, window: string): Promise<BudgetRow | null> {
    const paramsNow = () => (typeof params === 'function' ? params() : params);
    if (this.postgres) {
      const [rows] = (await this.dataSource.query(...this.bind(`${sql} RETURNING *`, paramsNow()))) as [Record<string, unknown>[], number];
      return rows[0] ? numeric(rows[0]) : null;
    }
    return this.writer.transaction(async (m: EntityManager) => {
      const [text, values] = this.bind(sql, paramsNow()); // in its turn: a clock read here is current
      const result = await m.queryRunner!.query(text, values, true);
      if (!result.affected) return null;
      const rows = await m.query(...this.bind('SELECT * FROM request_budget WHERE scope = @scope AND window_name = @window', { scope, window }));
      return rows[0] ? numeric(rows[0]) : null;
    });
  }

  /** `@name` placeholders → `$n` (PostgreSQL) or `?` (SQLite) and the values in order. */
  private bind(sql: string, params: Record<string, unknown>): [string, unknown[]] {
    const values: unknown[] = [];
    const numbers = new Map<string, number>();
    const text = sql.replace(/@(\w+)/g, (_, name: string) => {
      if (!(name in params)) throw new Error(`request budget: no value for @${name}`);
      if (!this.postgres) {
        values.push(params[name]);
        return '?';
      }
      if (!numbers.has(name)) {
        values.push(params[name]);
        numbers.set(name, values.length);
      }
      return `$${numbers.get(name)}`;
    });
    return [text, values];
  }
}

/** PostgreSQL returns bigint/double columns of raw queries as they are typed; make every number a number. */
function numeric(row: Record<string, unknown>): BudgetRow {
  return {
    window_name: String(row.window_name),
    next_at: Number(row.next_at),
    penalty_until: Number(row.penalty_until),
    period_start: Number(row.period_start),
    used: Number(row.used),
    prev_used: Number(row.prev_used),
  };
}
