/** An HTTP answer as the phone commands read it: the status and the body, parsed when it is JSON. */
export interface HttpAnswer {
  status: number;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
}

/** A platform that answered, but not with success: its message is for the user as it is. */
export class RemoteError extends Error {}

/** How long a phone waits for the platform: a sale waits for the acquirer host too. */
const TIMEOUT_MS = 60_000;

/** Sends one JSON request; a platform that cannot be reached is an error naming its address. */
export async function requestJson(
  method: 'GET' | 'POST',
  url: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : (cause?.code ?? cause?.message ?? String(error));
    throw new RemoteError(`could not reach ${new URL(url).origin} (${reason}); is the platform running (npm start)?`);
  }
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

/** The one line that says why a request failed: the problem's detail (gateway) or the envelope's msg (merchant-management), with the status. */
export function failureOf(what: string, answer: HttpAnswer): RemoteError {
  const body = typeof answer.body === 'object' && answer.body !== null ? (answer.body as Record<string, unknown>) : {};
  const said = [body.detail, body.msg, body.title].find((value): value is string => typeof value === 'string' && value !== '');
  const code = typeof body.code === 'number' ? `code ${body.code}, ` : '';
  const requestId = typeof body.requestId === 'string' ? `, request ${body.requestId}` : '';
  const text = said ?? (typeof answer.body === 'string' && answer.body !== '' ? answer.body.slice(0, 300) : 'no explanation given');
  return new RemoteError(`${what}: ${text} (${code}HTTP ${answer.status}${requestId})`);
}
