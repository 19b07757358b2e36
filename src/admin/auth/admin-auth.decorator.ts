import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AdminAuthGuard } from './admin-auth.guard';

/** Bearer-protected admin controller: the guard plus its OpenAPI description. */
export function AdminAuth(): ClassDecorator & MethodDecorator {
  return applyDecorators(
    UseGuards(AdminAuthGuard),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: 'missing or wrong admin token' }),
  );
}
