import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { DomainError, ErrorCode } from '../errors';
import { toEnvelope } from './envelope-exception.filter';
import { ErrorFormatRegistry, pathOf } from './error-formats';
import { securityHeaderValues } from './security-headers';

/** What a request the HTTP parser refused means to the client: a fixed text, never the bytes it sent. */
function clientErrorOf(code: string | undefined): DomainError {
  if (code === 'HPE_HEADER_OVERFLOW') return new DomainError(ErrorCode.HeadersTooLarge, 'the request line and headers are larger than the server takes');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new DomainError(ErrorCode.RequestTimeout, 'the request did not arrive completely in time');
  return DomainError.validation('the request is not valid HTTP/1.1: its request line or a header is malformed');
}

/**
 * The path a refused request named, as far as its first bytes can be read safely: an upper-case
 * method, a space and the target's visible ASCII up to the first other byte (a space, a control
 * byte, or where the parser stopped in a URL too long to end), whose leading segments choose the
 * format. Undefined when the request line does not start so.
 */
export function requestPathOf(rawPacket: Buffer | undefined): string | undefined {
  if (!rawPacket) return undefined;
  const head = rawPacket.subarray(0, 8192).toString('latin1');
  const match = /^[A-Z]{1,16} (\/[\x21-\x7e]*)/.exec(head);
  return match ? pathOf(match[1]) : undefined;
}

/** Status, headers and body of `error` in the format of `path` (else of `/`), for an answer written outside Fastify; the connection then closes. */
export function rawErrorAnswer(error: DomainError, path: string | undefined, formats: ErrorFormatRegistry): { status: number; headers: Record<string, string>; body: string } {
  const renderer = formats.rendererFor(path ?? '/');
  // The error object names the request: the renderer's request id is keyed on it.
  const rendered = renderer
    ? renderer(error, error)
    : (({ status, body }) => ({ status, contentType: 'application/json; charset=utf-8', headers: {}, body: JSON.stringify(body) }))(toEnvelope(error));
  const headers: Record<string, string> = {
    // The headers helmet sets on every other answer (HSTS, CSP, X-Frame-Options, …).
    ...securityHeaderValues(),
    ...rendered.headers,
    'content-type': rendered.contentType,
    'content-length': String(Buffer.byteLength(rendered.body, 'utf8')),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'close',
  };
  return { status: rendered.status, headers, body: rendered.body };
}

/** A complete HTTP/1.1 answer to a refused request, in the format of the path it named (else of `/`); the connection then closes. */
export function clientErrorResponse(code: string | undefined, rawPacket: Buffer | undefined, formats: ErrorFormatRegistry): string {
  const { status, headers, body } = rawErrorAnswer(clientErrorOf(code), requestPathOf(rawPacket), formats);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}\r\n${body}`;
}

/**
 * The HTTP server's `checkExpectation` handler: an `Expect` header other than `100-continue`
 * (Node answers those itself) is answered 417 in the path's format, not Node's bare 417.
 */
export function handleUnmetExpectation(formats: ErrorFormatRegistry) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const error = new DomainError(ErrorCode.ExpectationFailed, 'the Expect header asks for something this server does not do (only 100-continue is)');
    const { status, headers, body } = rawErrorAnswer(error, pathOf(request.url ?? '/'), formats);
    response.writeHead(status, headers);
    response.end(body);
  };
}

/**
 * The HTTP server's `clientError` handler: a request Node's parser refuses (a header or URL over
 * the size limit, a byte not allowed in a header, a malformed request line, a request that
 * timed out) is answered in the application's own error format instead of Node's or Fastify's
 * raw text. A connection reset, or one whose response already began, is only closed.
 */
export function handleClientError(formats: ErrorFormatRegistry) {
  return (error: Error & { code?: string; rawPacket?: Buffer }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const inProgress = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (!socket.writable || inProgress) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(error.code, error.rawPacket, formats), 'utf8', () => socket.destroy());
  };
}
