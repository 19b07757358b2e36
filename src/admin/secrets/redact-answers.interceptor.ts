import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { SecretScrubber } from '../../secrets/secret-scrubber.service';

/** The last step of every admin answer: whatever a service returned, no secret leaves. */
@Injectable()
export class RedactAnswersInterceptor implements NestInterceptor {
  constructor(private readonly scrubber: SecretScrubber) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((body) => this.scrubber.scrub(body)));
  }
}
