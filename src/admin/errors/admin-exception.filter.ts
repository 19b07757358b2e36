import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { EngineStoppingError, InvalidRunOptionsError, RunInProgressError, UnknownConnectionError, UnknownRunError } from '../../engine';
import { ConfigReloadRefusedError } from '../../application/config/config-reload.service';
import { RunQueueUnavailableError } from '../../application/runs/queued-runs';
import { SecretScrubber } from '../../secrets/secret-scrubber.service';

/**
 * Turns what the services throw into answers: unknown connection or run → 404, a run already
 * going → 409 with its id, options the engine refuses and a config file that does not load → 400, shutting down or the cluster's Redis away → 503, anything
 * unexpected → 500 with its message. Every answer is scrubbed.
 */
@Catch()
export class AdminExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('AdminApi');

  constructor(private readonly scrubber: SecretScrubber) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const { status, body } = this.answer(error);
    host.switchToHttp().getResponse<Response>().status(status).json(this.scrubber.scrub(body));
  }

  private answer(error: unknown): { status: number; body: Record<string, unknown> } {
    if (error instanceof HttpException) {
      const response = error.getResponse();
      const body = typeof response === 'string' ? { statusCode: error.getStatus(), message: response } : response;
      return { status: error.getStatus(), body: body as Record<string, unknown> };
    }
    if (error instanceof UnknownConnectionError || error instanceof UnknownRunError) {
      return { status: HttpStatus.NOT_FOUND, body: { statusCode: 404, error: 'Not Found', message: error.message } };
    }
    if (error instanceof RunInProgressError) {
      const body = { statusCode: 409, error: 'Conflict', message: error.message, run_id: error.runId };
      return { status: HttpStatus.CONFLICT, body };
    }
    if (error instanceof InvalidRunOptionsError) {
      return { status: HttpStatus.BAD_REQUEST, body: { statusCode: 400, error: 'Bad Request', message: [error.message] } };
    }
    if (error instanceof ConfigReloadRefusedError) {
      const body = { statusCode: 400, error: 'Bad Request', message: error.message, file: error.file, problems: error.problems };
      return { status: HttpStatus.BAD_REQUEST, body };
    }
    if (error instanceof EngineStoppingError || error instanceof RunQueueUnavailableError) {
      return { status: HttpStatus.SERVICE_UNAVAILABLE, body: { statusCode: 503, error: 'Service Unavailable', message: error.message } };
    }
    const message = this.scrubber.text(error instanceof Error ? error.message : String(error));
    this.logger.error(`admin request failed: ${message}`);
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, body: { statusCode: 500, error: 'Internal Server Error', message } };
  }
}
