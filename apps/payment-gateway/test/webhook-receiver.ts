import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/** One POST a receiver got, as a merchant's server would see it. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingMessage['headers'];
  /** The body exactly as received (what the signature covers). */
  raw: string;
  at: number;
}

/** How a path answers: status and headers (after `delayMs`), or `hang` (never answer). */
export type Answer = { status: number; statusMessage?: string; headers?: Record<string, string>; delayMs?: number } | 'hang';

/**
 * A merchant's webhook endpoint on 127.0.0.1: records every request and answers by a script
 * per path (default 200), as the tests say.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, (request: ReceivedWebhook, nth: number) => Answer>();
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.handle(request, response));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** `http://127.0.0.1:<port><path>`. */
  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Answers requests to `path` with `answer(request, n)` (n: 1 for the first request to that path). */
  script(path: string, answer: (request: ReceivedWebhook, nth: number) => Answer): void {
    this.scripts.set(path, answer);
  }

  to(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://receiver').pathname;
      const received: ReceivedWebhook = { path, headers: request.headers, raw: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      this.received.push(received);
      const script = this.scripts.get(path) ?? ((): Answer => ({ status: 200 }));
      const answer = script(received, this.to(path).length);
      if (answer === 'hang') return;
      setTimeout(() => (answer.statusMessage === undefined ? response.writeHead(answer.status, answer.headers) : response.writeHead(answer.status, answer.statusMessage, answer.headers)).end('receiver body that must never be stored'), answer.delayMs ?? 0);
    });
  }
}

/**
 * Checks `Softpos-Signature: t=<unix seconds>,v1=<hex>` as a merchant would, from the documented
 * rule alone: HMAC-SHA256 under the secret of `<t>.<raw body>`.
 */
export function signatureVerifies(received: ReceivedWebhook, secret: string): boolean {
  const header = String(received.headers['softpos-signature'] ?? '');
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${received.raw}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2], 'hex'));
}

/** The `t` of a received signature, in ms. */
export function signedAt(received: ReceivedWebhook): number {
  return Number(/^t=(\d+),/.exec(String(received.headers['softpos-signature']))?.[1]) * 1000;
}
