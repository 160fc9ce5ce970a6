import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/** Helmet's defaults, with a content security policy that lets the Swagger UI at /docs run. */
export const HELMET_OPTIONS = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'validator.swagger.io'],
      scriptSrc: ["'self'", "https: 'unsafe-inline'"],
    },
  },
};

/** The same headers as a plain Node middleware, for responses Fastify sends without its hooks. */
export const securityHeaders = helmet(HELMET_OPTIONS);

let fixedHeaders: ReadonlyArray<readonly [string, string | number | readonly string[]]> | undefined;

/**
 * The headers {@link securityHeaders} sets, in its order and spelling, as it sets them. Helmet's
 * headers depend on nothing of the request: they are read once from the middleware itself, so
 * every answer carries the same set whatever helmet's version adds.
 */
export function securityHeaderList(): ReadonlyArray<readonly [string, string | number | readonly string[]]> {
  if (fixedHeaders === undefined) {
    const headers = new Map<string, [string, string | number | readonly string[]]>();
    const response = {
      setHeader: (name: string, value: string | number | readonly string[]) => {
        headers.set(name.toLowerCase(), [name, value]);
      },
      removeHeader: (name: string) => {
        headers.delete(name.toLowerCase());
      },
    } as unknown as ServerResponse;
    let done = false;
    securityHeaders({ headers: {} } as IncomingMessage, response, () => {
      done = true;
    });
    // Helmet's middleware is synchronous; if it ever is not, no half-read set is kept.
    if (!done) return [];
    fixedHeaders = [...headers.values()];
  }
  return fixedHeaders;
}

/**
 * The headers {@link securityHeaders} sets, as names (lower case) and values, for an answer
 * written on the socket without a response object (`client-error.ts`).
 */
export function securityHeaderValues(): Readonly<Record<string, string>> {
  return Object.fromEntries(securityHeaderList().map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]));
}
