import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import { TrackerSyncConfig } from '../../config';
import { readOrCreateTokenFile } from '../../config/admin-token-file';
import { AdminPrincipal, FULL_ACCESS } from './admin-principal';

/** A scoped token as kept in memory: its digest only. */
interface ScopedDigest {
  digest: Buffer;
  principal: AdminPrincipal;
}

/**
 * The admin API's bearer tokens. The full token: `ADMIN_TOKEN`, else config `admin.token`, else a token generated
 * on the first start and kept in `<data_dir>/admin-token` (printed once, to stdout, when it is created; never logged,
 * never printed again). The scoped tokens of `admin.tokens`: each sees its projects only (README "Scoped admin tokens");
 * they are read from the running config, so a reload that adds, changes or removes one takes effect at once (a
 * token taken away stops working without a restart). Only digests are kept, and every candidate is compared with
 * every token in constant time.
 */
@Injectable()
export class AdminTokenService implements OnApplicationBootstrap {
  private digest: Buffer | null = null;
  /** the scoped tokens' digests, and the `admin.tokens` list they were made from */
  private scoped: { from: unknown; digests: ScopedDigest[] } | null = null;

  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Only a process that serves HTTP needs the token (the CLI's application context has no adapter). */
  onApplicationBootstrap(): void {
    if (this.adapterHost.httpAdapter) this.ensureToken();
  }

  /** Who an `Authorization` header is, or why it grants nothing. */
  resolve(header: string | undefined): { principal: AdminPrincipal } | { problem: string } {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
    if (!token) return { problem: 'an admin token is required: Authorization: Bearer <token>' };
    const principal = this.principalOf(token);
    return principal ? { principal } : { problem: 'the admin token is not valid' };
  }

  /** Why an `Authorization` header does not grant access, or null when it does (a scoped token does). */
  problemWith(header: string | undefined): string | null {
    const resolved = this.resolve(header);
    return 'problem' in resolved ? resolved.problem : null;
  }

  /** The full token, compared in constant time (of digests, so lengths never leak either). */
  matches(candidate: string): boolean {
    return this.principalOf(candidate)?.kind === 'full';
  }

  /** Every token is compared, whichever matched, so the time taken says nothing of which one did. */
  private principalOf(candidate: string): AdminPrincipal | null {
    const digest = sha256(candidate);
    let found: AdminPrincipal | null = timingSafeEqual(digest, this.ensureToken()) ? FULL_ACCESS : null;
    for (const scoped of this.scopedDigests()) {
      if (timingSafeEqual(digest, scoped.digest) && !found) found = scoped.principal;
    }
    return found;
  }

  /** made again when a reload has put another `admin.tokens` list in the running config */
  private scopedDigests(): ScopedDigest[] {
    const tokens = this.config.admin?.tokens ?? [];
    if (this.scoped?.from !== tokens) {
      this.scoped = {
        from: tokens,
        digests: tokens.map((t) => ({
          digest: sha256(t.token),
          principal: { kind: 'scoped', name: t.name, projects: [...t.projects], role: t.role },
        })),
      };
    }
    return this.scoped.digests;
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
