import { createHmac } from 'node:crypto';

/** The header that carries a delivery's signature. */
export const SIGNATURE_HEADER = 'Softpos-Signature';

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (DECISIONS.md, "Transactions"). The
 * key is the PBO's webhook secret exactly as `GET /webhooks/secret` shows it (`whsec_` and 64
 * hex digits, prefix included, as UTF-8 bytes); the body is the exact bytes sent.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const signature = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${signature}`;
}
