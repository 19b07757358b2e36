import { AuthDefinition } from '../definition/source-definition';
import { Authenticator, OutgoingRequest } from './authenticator';

/** Credentials that never change during a run: header key, bearer, basic, query parameter, webhook path. */

export class BearerAuth implements Authenticator {
  constructor(private readonly token: string) {}
  apply(request: OutgoingRequest): void {
    request.headers.Authorization = `Bearer ${this.token}`;
  }
}

export class HeaderKeyAuth implements Authenticator {
  constructor(private readonly definition: AuthDefinition, private readonly token: string) {}
  apply(request: OutgoingRequest): void {
    request.headers[this.definition.header ?? 'X-API-Key'] = `${this.definition.prefix ?? ''}${this.token}`;
  }
}

export class BasicAuth implements Authenticator {
  constructor(private readonly username: string, private readonly password: string) {}
  apply(request: OutgoingRequest): void {
    request.headers.Authorization = `Basic ${Buffer.from(`${this.username}:${this.password}`).toString('base64')}`;
  }
}

export class QueryParamAuth implements Authenticator {
  constructor(private readonly param: string, private readonly token: string) {}
  apply(request: OutgoingRequest): void {
    request.url.searchParams.set(this.param, this.token);
  }
}

/** Bitrix24 inbound webhooks: the secret is a path segment, https://x.bitrix24.ru/rest/1/<token>/crm.item.list */
export class WebhookPathAuth implements Authenticator {
  constructor(private readonly basePath: string, private readonly token: string) {}
  apply(request: OutgoingRequest): void {
    const base = this.basePath.replace(/\/$/, '');
    const { pathname } = request.url;
    if (pathname.includes(`/${this.token}/`)) return;
    const rest = pathname.startsWith(base) ? pathname.slice(base.length) : pathname;
    request.url.pathname = `${base}/${this.token}${rest.startsWith('/') ? rest : `/${rest}`}`;
  }
}

export class NoAuth implements Authenticator {
  apply(): void {}
}
