import axios from 'axios';
import { createHash } from 'crypto';
import * as fs from 'fs';
import type * as http from 'http';
import type * as https from 'https';
import * as path from 'path';
import type { ConnectorSecrets } from 'tracker-sync/connector';
import { AuthDefinition } from '../definition/source-definition';
import { Redactor } from '../http/redactor';
import { Authenticator, OutgoingRequest } from './authenticator';

/**
 * OAuth2 client credentials, or refresh token when one is configured. The access token is fetched once,
 * kept for the run (one authenticator per CrmSession), refreshed shortly before it expires and after a 401.
 * A new run starts from what was stored: the store, or the token file, never a process-wide cache.
 *
 * A refresh token that rotates (amoCRM's are single-use: each refresh returns a new one and voids the old) is
 * state of the whole installation: with `context.secrets` (the daemon's store) the current tokens live there,
 * one refresh at a time per token across every daemon and CLI process (the others wait, then take its result),
 * and a new token is written to the store before it is used. Without it (a host with no store) they are
 * cached in the connection's work folder as before; a file left there is moved into the store on first use.
 */

interface CachedToken {
  access_token: string;
  /** epoch ms; 0 = unknown */
  expires_at: number;
  refresh_token?: string;
}

const EXPIRY_MARGIN_MS = 60_000;

/** The session's keep-alive agents (closed with it); without them, Node's global agent. */
export interface TokenAgents {
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
}

export class OAuth2Auth implements Authenticator {
  private pending: Promise<CachedToken> | null = null;
  /** the run's token: read from the store (or the file) on first use, then kept until it is stale or refused */
  private token: CachedToken | undefined;

  constructor(
    private readonly definition: AuthDefinition,
    private readonly tokenUrl: string,
    private readonly redactor: Redactor,
    private readonly cacheFile: string | null,
    private readonly secrets: ConnectorSecrets | null = null,
    private readonly agents?: TokenAgents,
  ) {
    redactor.add(definition.client_secret, definition.refresh_token);
  }

  private get cacheKey(): string {
    return `${this.tokenUrl}|${this.definition.client_id ?? ''}|${this.definition.refresh_token ?? ''}`;
  }

  /** The store's key: a digest, so the configured token is not written in clear beside the rotated ones. */
  private get secretKey(): string {
    return `oauth2:${createHash('sha256').update(this.cacheKey).digest('hex').slice(0, 40)}`;
  }

  async apply(request: OutgoingRequest): Promise<void> {
    const token = await this.currentToken();
    request.headers.Authorization = `Bearer ${token.access_token}`;
  }

  invalidate(): boolean {
    if (this.token) this.token = { ...this.token, expires_at: 1 };
    return true;
  }

  private async currentToken(): Promise<CachedToken> {
    if (!this.token) {
      const stored = await this.loadStored();
      this.token ??= stored; // a renewal that ended meanwhile wins
    }
    const cached = this.token;
    if (cached && fresh(cached)) {
      this.redactor.add(cached.access_token, cached.refresh_token);
      return cached;
    }
    // One fetch at a time even when several streams ask together.
    this.pending ??= this.renew(cached).finally(() => (this.pending = null));
    return this.pending;
  }

  private async loadStored(): Promise<CachedToken | undefined> {
    if (!this.secrets) return this.readCacheFile();
    const stored = parseToken(await this.secrets.get(this.secretKey));
    if (stored) return stored;
    // an installation that kept the token in a file: move it into the store, once
    const fromFile = this.readCacheFile();
    if (!fromFile) return undefined;
    await this.secrets.compareAndSet(this.secretKey, null, JSON.stringify(fromFile));
    const now = parseToken(await this.secrets.get(this.secretKey));
    if (now) fs.rmSync(this.cacheFile!, { force: true });
    return now ?? fromFile;
  }

  private async renew(stale: CachedToken | undefined): Promise<CachedToken> {
    if (!this.secrets) {
      const token = await this.requestToken(stale?.refresh_token);
      this.writeCacheFile(token);
      return this.keep(token);
    }
    const secrets = this.secrets;
    return secrets.withLock(this.secretKey, async () => {
      const raw = await secrets.get(this.secretKey);
      const stored = parseToken(raw);
      // another process refreshed while this one waited for the lock: take its result
      if (stored && fresh(stored) && stored.access_token !== stale?.access_token) return this.keep(stored);
      let token: CachedToken;
      try {
        token = await this.requestToken(stored?.refresh_token ?? stale?.refresh_token);
      } catch (error) {
        // our refresh token was voided (rotated by a process that did not hold the lock): the store may know the new one
        const again = parseToken(await secrets.get(this.secretKey));
        if (again && again.refresh_token !== (stored?.refresh_token ?? stale?.refresh_token) && fresh(again)) return this.keep(again);
        throw error;
      }
      await this.store(secrets, raw, token); // before it is used: a crash from here on loses nothing
      return this.keep(token);
    });
  }

  /** Writes the new token over what was read; the lock makes a change in between rare (an expired lock). */
  private async store(secrets: ConnectorSecrets, read: string | null, token: CachedToken): Promise<void> {
    let expected = read;
    for (let i = 0; i < 3; i++) {
      if (await secrets.compareAndSet(this.secretKey, expected, JSON.stringify(token))) return;
      expected = await secrets.get(this.secretKey); // the service answered us last: ours is the current token
    }
    throw new Error(`OAuth2 token of ${this.tokenUrl}: could not store the rotated token (the store kept changing)`);
  }

  private keep(token: CachedToken): CachedToken {
    this.redactor.add(token.access_token, token.refresh_token);
    this.token = token;
    return token;
  }

  private async requestToken(rotatedRefreshToken?: string): Promise<CachedToken> {
    const refreshToken = rotatedRefreshToken ?? this.definition.refresh_token;
    const form = new URLSearchParams({ grant_type: refreshToken ? 'refresh_token' : 'client_credentials' });
    if (refreshToken) form.set('refresh_token', refreshToken);
    if (this.definition.client_id) form.set('client_id', this.definition.client_id);
    if (this.definition.client_secret) form.set('client_secret', this.definition.client_secret);
    if (this.definition.scope) form.set('scope', this.definition.scope);
    // league/oauth2-client (amoCRM's PHP library) sends it with every grant; amoCRM refuses a refresh without it
    if (this.definition.redirect_uri) form.set('redirect_uri', this.definition.redirect_uri);
    const response = await axios.post(this.tokenUrl, form.toString(), {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      validateStatus: () => true,
      timeout: 30_000,
      httpAgent: this.agents?.httpAgent,
      httpsAgent: this.agents?.httpsAgent,
    });
    const body = response.data as Record<string, unknown>;
    if (response.status >= 400 || typeof body?.access_token !== 'string') {
      const detail = this.redactor.redact(JSON.stringify(body ?? '').slice(0, 200));
      throw new Error(`OAuth2 token request to ${this.tokenUrl} failed: HTTP ${response.status} ${detail}${this.sentKeys(refreshToken)}`);
    }
    const expiresIn = Number(body.expires_in);
    const token: CachedToken = {
      access_token: body.access_token,
      expires_at: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : 0,
      refresh_token: typeof body.refresh_token === 'string' ? body.refresh_token : refreshToken,
    };
    this.redactor.add(token.access_token, token.refresh_token);
    return token;
  }

  /** A refused token request names the settings it was made of: one of them is not the integration's. */
  private sentKeys(refreshToken: string | undefined): string {
    const keys = ['client_id', 'client_secret', 'scope', 'redirect_uri'].filter((key) => this.definition[key as keyof AuthDefinition]);
    if (refreshToken) keys.unshift('refresh_token');
    return keys.length ? ` (sent settings.auth ${keys.join(', ')}: each must be the integration's${keys.includes('redirect_uri') ? ', redirect_uri exactly as in its settings' : ''})` : '';
  }

  private readCacheFile(): CachedToken | undefined {
    if (!this.cacheFile || !fs.existsSync(this.cacheFile)) return undefined;
    try {
      const stored = JSON.parse(fs.readFileSync(this.cacheFile, 'utf8')) as CachedToken & { key?: string };
      return stored.key === this.cacheKey ? { access_token: stored.access_token, expires_at: stored.expires_at, refresh_token: stored.refresh_token } : undefined;
    } catch {
      return undefined;
    }
  }

  /** Without a store: a temporary file renamed over the old one, so a crash never leaves half a token. */
  private writeCacheFile(token: CachedToken): void {
    if (!this.cacheFile) return;
    fs.mkdirSync(path.dirname(this.cacheFile), { recursive: true, mode: 0o700 });
    const temporary = `${this.cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify({ ...token, key: this.cacheKey }), { mode: 0o600 });
    fs.renameSync(temporary, this.cacheFile);
  }
}

function fresh(token: CachedToken): boolean {
  return token.expires_at === 0 || token.expires_at - EXPIRY_MARGIN_MS > Date.now();
}

function parseToken(raw: string | null): CachedToken | undefined {
  if (!raw) return undefined;
  try {
    const token = JSON.parse(raw) as CachedToken;
    return typeof token.access_token === 'string' ? token : undefined;
  } catch {
    return undefined;
  }
}
