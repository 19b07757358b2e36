import { createServer, IncomingMessage, Server, ServerResponse } from 'http';
import { AddressInfo } from 'net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedPost {
  path: string;
  body: any;
  at: number;
}

/**
 * A loopback HTTP receiver for alert messages (a webhook, a Slack incoming webhook, a Telegram-shaped Bot API):
 * keeps every POST; `failNext` answers the next ones with an error status, as a receiver that is down.
 */
export class HttpReceiver {
  readonly posts: ReceivedPost[] = [];
  /** answers for the next requests, e.g. [503, 503]: the request is kept but answered with the status */
  failNext: number[] = [];
  /** the JSON answer of a successful request */
  answer: unknown = { ok: true };
  private server: Server | null = null;
  url = '';

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  /** Waits until `count` posts arrived (or fails after `timeoutMs`). */
  async waitFor(count: number, timeoutMs = 5000): Promise<ReceivedPost[]> {
    const until = Date.now() + timeoutMs;
    while (this.posts.length < count) {
      if (Date.now() > until) throw new Error(`expected ${count} posts, got ${this.posts.length}: ${JSON.stringify(this.posts.map((p) => p.body))}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.posts;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const status = this.failNext.shift();
      if (status === undefined) this.posts.push({ path: req.url ?? '', body, at: Date.now() });
      const answer = JSON.stringify(status === undefined ? this.answer : { ok: false, error: 'down' });
      res.writeHead(status ?? 200, { 'Content-Type': 'application/json' });
      res.end(answer);
    });
  }
}

export interface ReceivedMail {
  from: string;
  to: string[];
  user: string | null;
  raw: string;
}

/** A loopback SMTP server (the smtp-server package) that accepts any login and keeps every message. */
export class SmtpReceiver {
  readonly mails: ReceivedMail[] = [];
  private server: SMTPServer | null = null;
  port = 0;

  async start(): Promise<number> {
    this.server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      logger: false,
      onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: (session.user as string | undefined) ?? null,
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this.port;
  }

  async stop(): Promise<void> {
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  async waitFor(count: number, timeoutMs = 5000): Promise<ReceivedMail[]> {
    const until = Date.now() + timeoutMs;
    while (this.mails.length < count) {
      if (Date.now() > until) throw new Error(`expected ${count} mails, got ${this.mails.length}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.mails;
  }
}
