/** The parts of `SMTP_URL` nodemailer needs, and a printable form without credentials. */
export interface SmtpEndpoint {
  host: string;
  port: number;
  /** `smtps://`: TLS from the first byte (usually port 465); `smtp://` upgrades with STARTTLS when offered. */
  secure: boolean;
  auth?: { user: string; pass: string };
  /** `smtp://host:port`, for messages and logs: never the user name or password. */
  redacted: string;
}

const FORMAT = 'SMTP_URL must look like smtp://[user:password@]host[:port] or smtps://[user:password@]host[:port]';

/**
 * Parses `smtp://user:pass@host:587` or `smtps://…`. Errors never repeat the URL, since it
 * may hold a password (Node's own URL error carries the input, so it is not passed on).
 */
export function parseSmtpUrl(url: string): SmtpEndpoint {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(FORMAT);
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new Error(`${FORMAT} (unsupported scheme ${parsed.protocol})`);
  if (!parsed.hostname) throw new Error(`${FORMAT} (no host)`);
  // Options in a query string or path would be silently ignored: refuse them rather than surprise.
  if (parsed.search || (parsed.pathname && parsed.pathname !== '/')) throw new Error(`${FORMAT} (no path or query parameters)`);
  const secure = parsed.protocol === 'smtps:';
  const port = parsed.port ? Number(parsed.port) : secure ? 465 : 587;
  // WHATWG URL keeps IPv6 hosts bracketed; the socket wants them bare.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  return {
    host,
    port,
    secure,
    ...(user ? { auth: { user, pass } } : {}),
    redacted: `${parsed.protocol}//${parsed.hostname}:${port}`,
  };
}
