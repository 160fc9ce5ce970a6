import { errorMessage } from '@app/common';
import { Injectable } from '@nestjs/common';
import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { CheckedDestination, UNREACHABLE } from '../destination/destination-guard';
import { AttemptOutcome } from './retry-policy';

/** One POST to send. */
export interface WebhookPost {
  destination: CheckedDestination;
  headers: Record<string, string>;
  body: string;
  /** Ends the attempt at this instant (ms since the epoch), whatever stage it is in. */
  deadline: number;
  /** The attempt's whole time (WEBHOOK_TIMEOUT_MS), for the message when the deadline passes. */
  timeoutMs: number;
  /** Aborts the attempt (the process stops); the outcome is then `aborted`. */
  signal: AbortSignal;
}

export type SendOutcome = Exclude<AttemptOutcome, { kind: 'refused' }> | { kind: 'aborted' };

/**
 * `HTTP 503 (server error)`: what is kept of an answer, the status code and our own category of
 * it. Never the receiver's reason phrase or body: a host the operator allow-listed (an internal
 * one) would otherwise show its own text to the PBO.
 */
export function statusLine(response: Pick<IncomingMessage, 'statusCode'>): string {
  const status = response.statusCode ?? 0;
  return `HTTP ${status} (${statusCategoryOf(status)})`;
}

/** Our word for a status class. */
export function statusCategoryOf(status: number): string {
  if (status >= 200 && status < 300) return 'accepted';
  if (status >= 300 && status < 400) return 'redirect, not followed';
  if (status >= 400 && status < 500) return 'refused by the receiver';
  if (status >= 500 && status < 600) return 'receiver error';
  return 'not a valid status';
}

/**
 * POSTs a webhook over node's HTTP client to the address the guard checked: the connection
 * goes to that IP (no second DNS lookup that could answer otherwise), with the URL's host in the
 * Host header and as the TLS server name, so certificates are verified against the name. One
 * connection per attempt (no agent pool keyed by name). Redirects are never followed: a 3xx is
 * an answer like any other non-2xx. The answer's body is not read.
 */
@Injectable()
export class WebhookSender {
  send(post: WebhookPost): Promise<SendOutcome> {
    const { destination, body } = post;
    const { url } = destination;
    const secure = url.protocol === 'https:';
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        post.signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const options = {
        method: 'POST',
        host: destination.address,
        family: destination.family,
        port: destination.port,
        path: `${url.pathname}${url.search}`,
        agent: false as const,
        headers: { ...post.headers, host: url.host, 'content-length': String(Buffer.byteLength(body)) },
        // A name, never an IP address, goes in SNI; the certificate is checked against it.
        ...(secure && isIP(destination.hostname) === 0 ? { servername: destination.hostname } : {}),
      };
      const request = (secure ? httpsRequest : httpRequest)(options, (response) => {
        const status = response.statusCode ?? 0;
        const line = statusLine(response);
        response.destroy();
        request.destroy();
        if (status >= 200 && status < 300) settle({ kind: 'delivered', status, statusLine: line });
        else if (status >= 300 && status < 400) settle({ kind: 'failed', status, reason: line });
        else settle({ kind: 'failed', status, reason: line });
      });
      // Listened to at once: destroying the request (deadline, abort) may emit an error of its own, which settle then ignores.
      request.on('error', (error) =>
        settle({ kind: 'failed', status: null, reason: UNREACHABLE, detail: `${url.protocol.slice(0, -1)} to ${destination.address}:${destination.port}: ${errorMessage(error)}` }),
      );
      const timer = setTimeout(
        () => {
          // Told like a refused connection: a silent port and a closed one look the same to the PBO.
          settle({ kind: 'failed', status: null, reason: UNREACHABLE, detail: `no answer within ${post.timeoutMs} ms from ${destination.address}:${destination.port}` });
          request.destroy();
        },
        Math.max(0, post.deadline - Date.now()),
      );
      const onAbort = () => {
        settle({ kind: 'aborted' });
        request.destroy();
      };
      post.signal.addEventListener('abort', onAbort);
      if (post.signal.aborted) onAbort();
      request.end(body);
    });
  }
}
