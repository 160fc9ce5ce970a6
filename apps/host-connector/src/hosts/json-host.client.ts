import { errorMessage } from '@app/common';
import { HostAnswer, HostOperation, HostOutcomeUnknownError, HostProtocolError, HostRequestOf, JsonDialect } from '@app/host-protocol';
import { Injectable, Logger } from '@nestjs/common';
import { logicalMtiOf, wireContextOf } from '../protocol/wire';
import { HostAddress } from '../routing/host-address';
import { StanRepository } from '../stan/persistence/stan.repository';
import { ExchangeOptions, HostExchange } from './host-exchange';

/** Failures that happen before a single byte of the request can have left. */
const NOT_CONNECTED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_INVALID_URL']);

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** JSON over HTTP (fetch, one request per operation, aborted at the deadline; redirects are not followed). */
@Injectable()
export class JsonHostClient {
  private readonly logger = new Logger('JsonHost');

  constructor(private readonly stans: StanRepository) {}

  async exchange<O extends HostOperation>(
    address: HostAddress,
    dialect: JsonDialect,
    operation: O,
    request: HostRequestOf[O],
    deadlineAt: number,
    options: ExchangeOptions = {},
  ): Promise<HostExchange> {
    const stan = options.stan ?? (await this.stans.next(address.format, address.endpoint, request.target.tid));
    const at = options.at ?? new Date();
    const context = wireContextOf(request, stan, at, options.repeat);
    let http: ReturnType<JsonDialect['buildHttpRequest']>;
    try {
      http = dialect.buildHttpRequest(operation, request, context);
    } catch (error) {
      if (error instanceof HostProtocolError) return { kind: 'unexpressible', reason: error.message };
      throw error;
    }
    const sent = { mti: logicalMtiOf(operation, request), stan, transmittedAt: context.transmittedAt, at, ...(http.orderId !== undefined ? { orderId: http.orderId } : {}) };
    const remaining = deadlineAt - Date.now();
    if (remaining <= 0) return { kind: 'not-sent', reason: `${address.format} ${address.url}: the deadline passed before sending` };
    const url = `${address.url}${http.path.startsWith('/') ? '' : '/'}${http.path}`;
    const label = `${address.format} ${url}`;
    await options.beforeSend?.(sent);
    let status: number;
    let text: string;
    try {
      const response = await fetch(url, {
        method: http.method,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(http.body),
        signal: AbortSignal.timeout(remaining),
        // A redirect could lead outside HOST_ALLOWLIST.
        redirect: 'manual',
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (isTimeout(error)) return { kind: 'no-answer', sent, reason: `no answer from ${label} within the deadline` };
      const code = causeCode(error);
      // The caller gets a reason, not the socket's text (which tells a refused port from a silent one): the detail is logged.
      if (code && NOT_CONNECTED_CODES.has(code)) {
        this.logger.warn(`cannot connect to ${label}: ${code}`);
        return { kind: 'not-sent', reason: `cannot connect to ${label}: the host did not take the connection` };
      }
      this.logger.warn(`${label} failed after the request was sent: ${code ?? errorMessage(error)}`);
      return { kind: 'no-answer', sent, reason: `${label} failed after the request was sent` };
    }
    // A server error says nothing about what the host did with the request: the outcome is unknown.
    if (status >= 500) return { kind: 'no-answer', sent, reason: `${label} answered HTTP ${status}` };
    let body: unknown = text;
    try {
      body = text.length > 0 ? (JSON.parse(text) as unknown) : null;
    } catch {
      // not JSON: the dialect sees the text and decides
    }
    let answer: HostAnswer;
    try {
      answer = dialect.parseHttpResponse(operation, status, body);
    } catch (error) {
      // "POMELO_JSON: the host answered ERROR 96 (HTTP 200) without saying whether the authorize moved money": what the host said.
      if (error instanceof HostOutcomeUnknownError) return { kind: 'no-answer', sent, reason: errorMessage(error), outcomeUnknown: true };
      return { kind: 'no-answer', sent, reason: `unreadable answer from ${label} (HTTP ${status}): ${errorMessage(error)}`, unreadable: true };
    }
    return { kind: 'answered', sent, answer };
  }
}
