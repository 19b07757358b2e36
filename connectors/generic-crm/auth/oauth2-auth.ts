import axios from 'axios';
import * as fs from 'fs';
import * as path from 'path';
import { AuthDefinition } from '../definition/source-definition';
import { Redactor } from '../http/redactor';
import { Authenticator, OutgoingRequest } from './authenticator';

/**
 * OAuth2 client credentials, or refresh token when one is configured. The access token is fetched once,
 * cached for the process (and in the connection's work folder, so a rotated refresh token survives a
 * restart), refreshed shortly before it expires and after a 401.
 */

interface CachedToken {
  access_token: string;
  /** epoch ms; 0 = unknown */
  expires_at: number;
  refresh_token?: string;
}

const EXPIRY_MARGIN_MS = 60_000;
const processCache = new Map<string, CachedToken>();

export class OAuth2Auth implements Authenticator {
  private pending: Promise<CachedToken> | null = null;

  constructor(
    private readonly definition: AuthDefinition,
    private readonly tokenUrl: string,
    private readonly redactor: Redactor,
    private readonly cacheFile: string | null,
  ) {
    redactor.add(definition.client_secret, definition.refresh_token);
  }

  private get cacheKey(): string {
    return `${this.tokenUrl}|${this.definition.client_id ?? ''}|${this.definition.refresh_token ?? ''}`;
  }

  async apply(request: OutgoingRequest): Promise<void> {
    const token = await this.currentToken();
    request.headers.Authorization = `Bearer ${token.access_token}`;
  }

  invalidate(): boolean {
    const cached = processCache.get(this.cacheKey);
    if (cached) processCache.set(this.cacheKey, { ...cached, expires_at: 1 });
    return true;
  }

  private async currentToken(): Promise<CachedToken> {
    let cached = processCache.get(this.cacheKey);
    if (!cached) {
      cached = this.readCacheFile();
      if (cached) processCache.set(this.cacheKey, cached);
    }
    if (cached && (cached.expires_at === 0 || cached.expires_at - EXPIRY_MARGIN_MS > Date.now())) {
      this.redactor.add(cached.access_token);
      return cached;
    }
    // One fetch at a time even when several streams ask together.
    this.pending ??= this.fetchToken(cached?.refresh_token).finally(() => (this.pending = null));
    return this.pending;
  }

  private async fetchToken(rotatedRefreshToken?: string): Promise<CachedToken> {
    const refreshToken = rotatedRefreshToken ?? this.definition.refresh_token;
    const form = new URLSearchParams({ grant_type: refreshToken ? 'refresh_token' : 'client_credentials' });
    if (refreshToken) form.set('refresh_token', refreshToken);
    if (this.definition.client_id) form.set('client_id', this.definition.client_id);
    if (this.definition.client_secret) form.set('client_secret', this.definition.client_secret);
    if (this.definition.scope) form.set('scope', this.definition.scope);
    const response = await axios.post(this.tokenUrl, form.toString(), {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      validateStatus: () => true,
      timeout: 30_000,
    });
    const body = response.data as Record<string, unknown>;
    if (response.status >= 400 || typeof body?.access_token !== 'string') {
      const detail = this.redactor.redact(JSON.stringify(body ?? '').slice(0, 200));
      throw new Error(`OAuth2 token request to ${this.tokenUrl} failed: HTTP ${response.status} ${detail}`);
    }
    const expiresIn = Number(body.expires_in);
    const token: CachedToken = {
      access_token: body.access_token,
      expires_at: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : 0,
      refresh_token: typeof body.refresh_token === 'string' ? body.refresh_token : refreshToken,
    };
    this.redactor.add(token.access_token, token.refresh_token);
    processCache.set(this.cacheKey, token);
    this.writeCacheFile(token);
    return token;
  }

  private readCacheFile(): CachedToken | undefined {
    if (!this.cacheFile || !fs.existsSync(this.cacheFile)) return undefined;
    try {
      const stored = JSON.parse(fs.readFileSync(this.cacheFile, 'utf8')) as CachedToken & { key?: string };
      return stored.key === this.cacheKey ? stored : undefined;
    } catch {
      return undefined;
    }
  }

  private writeCacheFile(token: CachedToken): void {
    if (!this.cacheFile) return;
    fs.mkdirSync(path.dirname(this.cacheFile), { recursive: true });
    fs.writeFileSync(this.cacheFile, JSON.stringify({ ...token, key: this.cacheKey }), { mode: 0o600 });
  }
}

/** Test hook and full-resync helper: forget every cached token of this process. */
export function clearOAuth2Cache(): void {
  processCache.clear();
}
