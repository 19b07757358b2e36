import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { SandboxRequest } from './sandbox-request';

/** The project id checked by SandboxAuthGuard (number). */
export const ProjectId = createParamDecorator((_data: unknown, context: ExecutionContext): number => {
  const request = context.switchToHttp().getRequest<SandboxRequest>();
  return request.sandbox?.projectId as number;
});

/** The Api-key of the request, already checked by SandboxAuthGuard. */
export const ApiKey = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const request = context.switchToHttp().getRequest<SandboxRequest>();
  return request.sandbox?.apiKey as string;
});
