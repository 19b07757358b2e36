import { ValidationPipe } from '@nestjs/common';

/**
 * Bodies and queries of the admin API: unknown keys refused, strings converted to the DTO's types.
 * A bad request answers 400 with `message` listing every problem.
 */
export const adminValidationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  stopAtFirstError: false,
});
