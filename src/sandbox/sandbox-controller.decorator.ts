import { Type, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { EXCEPTION_FILTERS_METADATA, GUARDS_METADATA, INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { SandboxAuthGuard } from './auth/sandbox-auth.guard';
import { SandboxExceptionFilter } from './errors/sandbox-exception.filter';
import { FaultInjectionInterceptor } from './faults/fault-injection.interceptor';

/**
 * Puts a sandbox controller behind the service's pipeline: auth + budget guard, fault injection,
 * and the service's error body. Applied by SandboxModule to every controller it mounts (core and
 * sections), once, so that the daemon's own routes stay untouched (no global guard).
 */
export function applySandboxPipeline(controller: Type): void {
  if (!hasMetadata(GUARDS_METADATA, controller, SandboxAuthGuard)) UseGuards(SandboxAuthGuard)(controller);
  if (!hasMetadata(INTERCEPTORS_METADATA, controller, FaultInjectionInterceptor)) {
    UseInterceptors(FaultInjectionInterceptor)(controller);
  }
  if (!hasMetadata(EXCEPTION_FILTERS_METADATA, controller, SandboxExceptionFilter)) {
    UseFilters(SandboxExceptionFilter)(controller);
  }
}

function hasMetadata(key: string, controller: Type, item: unknown): boolean {
  const list = (Reflect.getMetadata(key, controller) as unknown[] | undefined) ?? [];
  return list.includes(item);
}
