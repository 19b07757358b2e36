import { BeforeApplicationShutdown, CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { Observable, finalize, from, switchMap } from 'rxjs';
import { SandboxError, tooManyRequests } from '../errors/sandbox-error';
import { SANDBOX_OPTIONS, SandboxOptions } from '../sandbox-options';

export type FaultKind = 'rate_limited' | 'server_error' | 'timeout' | 'dropped';
const FAULT_KINDS: FaultKind[] = ['rate_limited', 'server_error', 'timeout', 'dropped'];
const DEFAULT_CLIENT_TIMEOUT_MS = 30_000;

/** how long a closing sandbox waits for its handlers beyond the longest injected delay */
const SHUTDOWN_GRACE_MS = 1_000;

/**
 * Makes the sandbox unreliable on purpose, for tests and benchmarks: a fixed latency on every
 * request, and a `faults` fraction of requests that answer 429, 500, too late, or not at all.
 *
 * A request answered too late is still carried out, as the real service would: its client has given up and
 * closed the connection, but the handler goes on and writes. So a sandbox that closes lets its handlers finish
 * before its store closes (Nest closes the store after `beforeApplicationShutdown`); closing under a handler's
 * statement failed with SQLITE_BUSY ("unable to close due to unfinalized statements").
 */
@Injectable()
export class FaultInjectionInterceptor implements NestInterceptor, BeforeApplicationShutdown {
  /** handlers not finished yet, whether or not their client still waits */
  private readonly running = new Set<Promise<void>>();

  constructor(@Inject(SANDBOX_OPTIONS) private readonly options: SandboxOptions) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    let finished!: () => void;
    const handler = new Promise<void>((resolve) => (finished = resolve));
    this.running.add(handler);
    return from(this.beforeHandler(request)).pipe(
      switchMap(() => next.handle()),
      finalize(() => {
        this.running.delete(handler);
        finished();
      }),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (!this.running.size) return;
    const longest = (this.options.latencyMs ?? 0) + (this.options.faults ? (this.options.clientTimeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS) + 250 : 0);
    await Promise.race([Promise.all(this.running), sleep(longest + SHUTDOWN_GRACE_MS)]);
  }

  private async beforeHandler(request: Request): Promise<void> {
    if (this.options.latencyMs) await sleep(this.options.latencyMs);
    const fraction = this.options.faults ?? 0;
    if (fraction <= 0 || Math.random() >= fraction) return;
    await this.inject(FAULT_KINDS[Math.floor(Math.random() * FAULT_KINDS.length)], request);
  }

  private async inject(kind: FaultKind, request: Request): Promise<void> {
    switch (kind) {
      case 'rate_limited':
        throw tooManyRequests('injected fault: too many requests', 1);
      case 'server_error':
        throw new SandboxError(500, 'internal_error', 'injected fault: internal error');
      case 'timeout':
        // Answers normally, but only after the client has given up waiting.
        await sleep((this.options.clientTimeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS) + 250);
        return;
      case 'dropped':
        request.socket.destroy();
        throw new SandboxError(500, 'internal_error', 'injected fault: connection dropped');
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
