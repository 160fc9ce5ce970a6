import { AddressInfo, Server, Socket, createServer } from 'node:net';
import { SMTPServer, SMTPServerAddress } from 'smtp-server';
import { ParsedMail, simpleParser } from 'mailparser';

/** One message as the test SMTP server received it. */
export interface ReceivedMail {
  /** SMTP envelope: MAIL FROM and RCPT TO, as opposed to the headers. */
  envelope: { from: string | null; to: string[] };
  /** User name the client authenticated with, if any. */
  user?: string;
  parsed: ParsedMail;
  raw: Buffer;
}

/** Behaviour of {@link startSmtpTestServer}. */
export interface SmtpTestServerOptions {
  /** Recipients refused with 550 at RCPT TO. */
  refuseRecipients?: string[];
  /** When set, AUTH is accepted only with these credentials (others get 535). */
  credentials?: { user: string; pass: string };
}

/** A real SMTP server on a free loopback port, recording what it accepted. */
export interface SmtpTestServer {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** Starts a plain-text (no TLS) SMTP server on 127.0.0.1 that keeps every accepted message. */
export async function startSmtpTestServer(options: SmtpTestServerOptions = {}): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  const refused = new Set((options.refuseRecipients ?? []).map((address) => address.toLowerCase()));
  const server = new SMTPServer({
    authOptional: !options.credentials,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = options.credentials && auth.username === options.credentials.user && auth.password === options.credentials.pass;
      if (ok) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      if (refused.has(address.address.toLowerCase())) callback(Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
                to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              },
              user: typeof session.user === 'string' ? session.user : undefined,
              parsed,
              raw,
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A TCP server that accepts connections and never says a word: an SMTP server that hangs. */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
