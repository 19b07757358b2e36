import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import { TrackerSyncConfig } from '../../config';
import { readOrCreateTokenFile } from '../../config/admin-token-file';

/**
 * The admin API's bearer token: `ADMIN_TOKEN`, else config `admin.token`, else a token generated
 * on the first start and kept in `<data_dir>/admin-token`. A generated token is printed once, to
 * stdout, when it is created; never logged, never printed again.
 */
@Injectable()
export class AdminTokenService implements OnApplicationBootstrap {
  private digest: Buffer | null = null;

  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Only a process that serves HTTP needs the token (the CLI's application context has no adapter). */
  onApplicationBootstrap(): void {
    if (this.adapterHost.httpAdapter) this.ensureToken();
  }

  /** Why an `Authorization` header does not grant access, or null when it does. */
  problemWith(header: string | undefined): string | null {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
    if (!token) return 'an admin token is required: Authorization: Bearer <token>';
    return this.matches(token) ? null : 'the admin token is not valid';
  }

  /** Constant-time comparison (of digests, so lengths never leak either). */
  matches(candidate: string): boolean {
    const expected = this.ensureToken();
    return timingSafeEqual(sha256(candidate), expected);
  }

  private ensureToken(): Buffer {
    if (!this.digest) this.digest = sha256(this.resolveToken());
    return this.digest;
  }

  private resolveToken(): string {
    const configured = process.env.ADMIN_TOKEN?.trim() || this.config.admin?.token?.trim();
    if (configured) return configured;
    const { token, created } = readOrCreateTokenFile(this.config.data_dir);
    if (created) announce(token, this.config.data_dir);
    return token;
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Straight to stdout, not through the logger: log lines must never carry the token. */
function announce(token: string, dataDir: string): void {
  process.stdout.write(
    `\nAdmin API token (shown only this once; kept in ${dataDir}/admin-token):\n\n    ${token}\n\n` +
      `Use it as: Authorization: Bearer <token>\n\n`,
  );
}
