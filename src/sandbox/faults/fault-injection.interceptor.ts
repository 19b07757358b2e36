import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { Observable, from, switchMap } from 'rxjs';
import { SandboxError, tooManyRequests } from '../errors/sandbox-error';
import { SANDBOX_OPTIONS, SandboxOptions } from '../sandbox-options';

export type FaultKind = 'rate_limited' | 'server_error' | 'timeout' | 'dropped';
const FAULT_KINDS: FaultKind[] = ['rate_limited', 'server_error', 'timeout', 'dropped'];
const DEFAULT_CLIENT_TIMEOUT_MS = 30_000;

/**
 * Makes the sandbox unreliable on purpose, for tests and benchmarks: a fixed latency on every
 * request, and a `faults` fraction of requests that answer 429, 500, too late, or not at all.
 */
@Injectable()
export class FaultInjectionInterceptor implements NestInterceptor {
  constructor(@Inject(SANDBOX_OPTIONS) private readonly options: SandboxOptions) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    return from(this.beforeHandler(request)).pipe(switchMap(() => next.handle()));
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
