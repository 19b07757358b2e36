import { applyDecorators, Controller, UseFilters, UseInterceptors, UsePipes } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminAuth } from './auth/admin-auth.decorator';
import { AdminExceptionFilter } from './errors/admin-exception.filter';
import { adminValidationPipe } from './errors/validation.pipe';
import { RedactAnswersInterceptor } from './secrets/redact-answers.interceptor';

/**
 * An admin controller under /api: bearer token, validated input, errors mapped to 404/409,
 * every answer scrubbed of secrets. One decorator so no controller can forget one of them.
 */
export function AdminController(path: string): ClassDecorator {
  return applyDecorators(
    Controller(`api/${path}`),
    ApiTags(path),
    AdminAuth(),
    UsePipes(adminValidationPipe),
    UseFilters(AdminExceptionFilter),
    UseInterceptors(RedactAnswersInterceptor),
  );
}
