import { signPboToken, UNSUPPORTED_CONTENT_ENCODING_MESSAGE, UNSUPPORTED_MEDIA_TYPE_MESSAGE } from '@app/common';
import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { startTestApp, TEST_AUTH, TestApp } from '@app/testing';
import { LoggerService } from '@nestjs/common';
import fc from 'fast-check';
import { connect } from 'node:net';
import { StandaloneModule } from '../apps/standalone/src';

/**
 * Requests Node's HTTP parser refuses before any route (issue 14 leftovers): a header or URL over
 * the size limit, a byte a header or URL may not hold, a malformed request line. Sent over a raw
 * socket, as no HTTP client would send them; the answer is always a complete HTTP/1.1 response in
 * the format of the path the request named (problem details under a gateway namespace, the
 * envelope elsewhere and when no path can be read), with a documented status, and never holds
 * the bytes the client sent.
 */

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  raw: Buffer;
}

/** Sends `request` as bytes and reads until the server closes the connection. */
function sendRaw(port: number, request: Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may close while the rest of a large request is still on its way.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const status = /^HTTP\/1\.1 (\d{3}) [^\r\n]+\r\n/.exec(text);
      if (end < 0 || !status) {
        reject(new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 200))}`));
        return;
      }
      const headers: Record<string, string> = {};
      for (const line of text.slice(text.indexOf('\r\n') + 2, end).split('\r\n')) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(status[1]), headers, body: raw.subarray(end + 4).toString('utf8'), raw });
    });
  });
}

const GATEWAY_PATH = `/${DEFAULT_GATEWAY_NAMESPACE}/api/v1/profiles`;

/** Where the request goes, and the format its path asks for. */
const target = fc.constantFrom(
  { path: GATEWAY_PATH, format: 'problem' as const },
  { path: `/${DEFAULT_GATEWAY_NAMESPACE}/api/v1/transactions/tx_1/void`, format: 'problem' as const },
  { path: '/api/openapi/v1/mchInfo', format: 'envelope' as const },
  { path: '/api/v2/order', format: 'envelope' as const },
);

/** A byte a header value may not hold (controls other than tab, and DEL). */
const badValueByte = fc.oneof(fc.integer({ min: 0x00, max: 0x08 }), fc.integer({ min: 0x0b, max: 0x0c }), fc.integer({ min: 0x0e, max: 0x1f }), fc.constant(0x7f));

/** A byte a header name (an HTTP token) may not hold. */
const badNameByte = fc.constantFrom(...'()<>@,;\\"/[]?={}'.split('').map((char) => char.charCodeAt(0)), 0x00, 0x01, 0x7f);

/** Text that stands for what the client sent: an answer holding it echoed the input. */
const marker = fc.stringMatching(/^[a-z0-9]{10}$/).map((text) => `zq${text}`);

type Defect = { status: 400 | 431; readable: boolean; request: (path: string, mark: string) => Buffer };

const head = (line: string, headers: string) => `${line}\r\nhost: 127.0.0.1\r\n${headers}\r\n`;
const bytes = (...parts: Array<string | number>) => Buffer.concat(parts.map((part) => (typeof part === 'number' ? Buffer.from([part]) : Buffer.from(part, 'latin1'))));

const defect: fc.Arbitrary<Defect> = fc.oneof(
  badValueByte.map((byte) => ({ status: 400 as const, readable: true, request: (path: string, mark: string) => bytes(head(`GET ${path} HTTP/1.1`, ''), `x-probe: a${mark}`, byte, `b\r\n\r\n`) })),
  badNameByte.map((byte) => ({ status: 400 as const, readable: true, request: (path: string, mark: string) => bytes(head(`GET ${path} HTTP/1.1`, ''), `x${mark}`, byte, `: v\r\n\r\n`) })),
  badValueByte.map((byte) => ({ status: 400 as const, readable: true, request: (path: string, mark: string) => bytes(`GET ${path}/${mark}`, byte, ` HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`) })),
  fc.integer({ min: 17_000, max: 30_000 }).map((size) => ({
    status: 431 as const,
    readable: true,
    request: (path: string, mark: string) => bytes(head(`GET ${path}?q=${mark}${'a'.repeat(size)} HTTP/1.1`, ''), '\r\n'),
  })),
  fc.integer({ min: 17_000, max: 30_000 }).map((size) => ({
    status: 431 as const,
    readable: true,
    request: (path: string, mark: string) => bytes(head(`POST ${path} HTTP/1.1`, `x-big: ${mark}${'b'.repeat(size)}\r\n`), '\r\n'),
  })),
  fc.constantFrom('HTTP/7.0', 'HTTP/1.1x', 'HTTQ/1.1').map((version) => ({
    status: 400 as const,
    readable: true,
    request: (path: string, mark: string) => bytes(head(`GET ${path}?${mark} ${version}`, ''), '\r\n'),
  })),
  fc.constantFrom('get', 'G\u007fET', 'GE T', '\u0000GET').map((method) => ({
    status: 400 as const,
    readable: false,
    request: (path: string, mark: string) => bytes(head(`${method} ${path}?${mark} HTTP/1.1`, ''), '\r\n'),
  })),
);

describe('the HTTP server answers requests its parser refuses in our formats', () => {
  let app: TestApp;
  let port: number;
  /** Every line the app logs, at every level. */
  const lines: string[] = [];
  const keep = (...parts: unknown[]) => void lines.push(parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' '));
  const logs: LoggerService = { log: keep, error: keep, warn: keep, debug: keep, verbose: keep, fatal: keep };

  beforeAll(async () => {
    app = await startTestApp((options) => StandaloneModule.register(options), {}, logs);
    port = Number(new URL(app.baseUrl).port);
  });

  afterAll(() => app.close());

  it('should answer a malformed or over-long request with a complete 400 or 431 in the path format, never echoing the request', async () => {
    await fc.assert(
      fc.asyncProperty(target, defect, marker, async ({ path, format }, { status, readable, request }, mark) => {
        const response = await sendRaw(port, request(path, mark));

        expect(response.status).toBe(status);
        expect(response.raw.toString('latin1')).not.toContain(mark);
        expect(Buffer.byteLength(response.body, 'utf8')).toBe(Number(response.headers['content-length']));
        expect(response.headers).toMatchObject({ connection: 'close', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
        const body = JSON.parse(response.body) as Record<string, unknown>;
        if (readable && format === 'problem') {
          expect(response.headers['content-type']).toBe('application/problem+json');
          expect(body).toEqual({
            type: status === 431 ? 'urn:softpos:problem:headers-too-large' : 'urn:softpos:problem:invalid-request',
            title: status === 431 ? 'Request headers too large' : 'Invalid request',
            status,
            detail: expect.any(String) as string,
            requestId: response.headers['x-service-request-id'],
          });
          expect(response.headers['x-service-request-id']).toMatch(/^req_[\w-]{22}$/);
        } else {
          expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(body).toEqual({ code: 10000, msg: expect.any(String) as string });
        }
      }),
      { numRuns: 60 },
    );
  });

  it('should say what was wrong without the request in it', async () => {
    const overflow = await sendRaw(port, bytes(head(`GET ${GATEWAY_PATH} HTTP/1.1`, `x-big: ${'c'.repeat(20_000)}\r\n`), '\r\n'));
    expect(JSON.parse(overflow.body)).toMatchObject({ status: 431, detail: 'the request line and headers are larger than the server takes' });

    const badByte = await sendRaw(port, bytes(head('GET /api/openapi/v1/mchInfo HTTP/1.1', ''), 'x-probe: a', 0x7f, '\r\n\r\n'));
    expect(JSON.parse(badByte.body)).toEqual({ code: 10000, msg: 'the request is not valid HTTP/1.1: its request line or a header is malformed' });
  });

  it('should refuse a body that is not JSON with 415 in the path format, whatever its Content-Type says, without echoing it', async () => {
    const token = await signPboToken(TEST_AUTH, 'grp_media', 600);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom({ path: GATEWAY_PATH, format: 'problem' }, { path: '/api/openapi/v1/mchInfo', format: 'envelope' }, { path: '/api/v2/settlement/settle', format: 'envelope' }),
        fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x', 'image/png'),
        marker,
        async ({ path, format }, type, mark) => {
          const response = await fetch(`${app.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': `${type}; x=${mark}` }, body: `{"a":"${mark}"}` });
          const text = await response.text();

          expect(response.status).toBe(415);
          expect(text).not.toContain(mark);
          if (format === 'problem') expect(JSON.parse(text)).toMatchObject({ type: 'urn:softpos:problem:unsupported-media-type', status: 415, detail: UNSUPPORTED_MEDIA_TYPE_MESSAGE });
          else expect(JSON.parse(text)).toEqual({ code: 10000, msg: UNSUPPORTED_MEDIA_TYPE_MESSAGE });
        },
      ),
      { numRuns: 20 },
    );
  });

  // r14c item 6: Content-Encoding: gzip with a plain {} body was parsed as JSON.
  it('should refuse a JSON body sent with any Content-Encoding but identity with 415 in the path format, and take identity', async () => {
    const token = await signPboToken(TEST_AUTH, 'grp_encoding', 600);
    const coding = fc.oneof(
      fc.constantFrom('gzip', 'GZIP', 'br', 'deflate', 'compress', 'x-gzip', 'zstd', 'identity, gzip', 'gzip, identity'),
      fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/).filter((name) => name !== 'identity'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom({ path: GATEWAY_PATH, format: 'problem' }, { path: '/api/openapi/v1/mchInfo', format: 'envelope' }, { path: '/api/sdk/v1/activate', format: 'envelope' }),
        coding,
        async ({ path, format }, encoding) => {
          const response = await fetch(`${app.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': encoding }, body: '{}' });
          const text = await response.text();

          expect({ encoding, status: response.status }).toEqual({ encoding, status: 415 });
          // RFC 9110 §15.5.16: a 415 for a content coding says which codings are accepted.
          expect(response.headers.get('accept-encoding')).toBe('identity');
          if (format === 'problem') expect(JSON.parse(text)).toMatchObject({ type: 'urn:softpos:problem:unsupported-media-type', status: 415, detail: UNSUPPORTED_CONTENT_ENCODING_MESSAGE });
          else expect(JSON.parse(text)).toEqual({ code: 10000, msg: UNSUPPORTED_CONTENT_ENCODING_MESSAGE });
        },
      ),
      { numRuns: 30 },
    );
    for (const identity of ['identity', 'IDENTITY', ' identity ']) {
      const response = await fetch(`${app.baseUrl}/api/sdk/v1/activate`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': identity }, body: '{}' });
      expect({ identity, status: response.status }).toEqual({ identity, status: 400 });
    }
  });

  it('should refuse a JSON body whose bytes are not UTF-8 with 400 saying so, in the path format', async () => {
    const token = await signPboToken(TEST_AUTH, 'grp_utf8', 600);
    // Bytes UTF-8 never holds (0xC0, 0xC1, 0xF5–0xFF), a lone surrogate's encoding, a truncated sequence.
    const invalid = fc.constantFrom([0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80]);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom({ path: GATEWAY_PATH, format: 'problem' }, { path: '/api/openapi/v1/mchInfo', format: 'envelope' }),
        invalid,
        fc.string({ maxLength: 8 }),
        async ({ path, format }, bad, before) => {
          const body = Buffer.concat([Buffer.from(`{"mchName":"${before.replace(/["\\]/g, '')}`, 'utf8'), Buffer.from(bad), Buffer.from('"}')]);
          const response = await fetch(`${app.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
          const text = await response.text();

          expect(response.status).toBe(400);
          if (format === 'problem') expect(JSON.parse(text)).toMatchObject({ status: 400, detail: 'the request body is not valid UTF-8' });
          else expect(JSON.parse(text)).toEqual({ code: 10000, msg: 'the request body is not valid UTF-8' });
        },
      ),
      { numRuns: 20 },
    );
  });

  it('should refuse a signed token whose groupId holds a control character with 401, before any lookup or log line holds it', async () => {
    // The logger is the app's (startup lines arrived), so a line holding the claim would be seen.
    expect(lines.length).toBeGreaterThan(0);
    const control = fc.oneof(fc.integer({ min: 0x00, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f })).map((code) => String.fromCharCode(code));
    await fc.assert(
      fc.asyncProperty(marker, control, fc.nat({ max: 12 }), fc.constantFrom(GATEWAY_PATH, '/api/openapi/v1/mchInfo', '/api/v2/order'), async (mark, char, at, path) => {
        const groupId = `${mark.slice(0, at)}${char}${mark.slice(at)}`;
        const token = await signPboToken(TEST_AUTH, groupId, 600);
        const before = lines.length;

        const response = await fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
        const text = await response.text();

        expect(response.status).toBe(401);
        expect(text).toContain('bearer token carries a groupId that cannot be a group');
        expect(text).not.toContain(mark);
        expect(lines.slice(before).filter((line) => line.includes(char) || line.includes(mark))).toEqual([]);
      }),
      { numRuns: 30 },
    );
  });

  it('should answer what Node would answer bare (no Host on HTTP/1.1, an Expect it cannot meet) in the path format', async () => {
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH');
    /** An Expect value other than 100-continue (any case of it Node treats as 100-continue). */
    const expectation = fc.stringMatching(/^[a-z0-9-]{1,20}(=[a-z0-9]{1,10})?$/).filter((value) => value.toLowerCase() !== '100-continue');
    const kind = fc.oneof(
      fc.constant({ status: 400, header: '', detail: 'the request has no Host header, which HTTP/1.1 requires', type: 'invalid-request', title: 'Invalid request' }),
      // RFC 9112 §3.2: more than one Host is a 400 too (r14g), whatever the case of the names.
      fc.tuple(fc.constantFrom('host', 'Host', 'HOST'), fc.constantFrom('127.0.0.1', 'x', 'y')).map(([name, second]) => ({
        status: 400,
        header: `host: 127.0.0.1\r\n${name}: ${second}\r\n`,
        detail: 'the request has more than one Host header',
        type: 'invalid-request',
        title: 'Invalid request',
      })),
      expectation.map((value) => ({
        status: 417,
        header: `host: 127.0.0.1\r\nexpect: ${value}\r\n`,
        detail: 'the Expect header asks for something this server does not do (only 100-continue is)',
        type: 'expectation-failed',
        title: 'Expectation failed',
      })),
    );
    await fc.assert(
      fc.asyncProperty(target, method, kind, async ({ path, format }, verb, { status, header, detail, type, title }) => {
        const response = await sendRaw(port, bytes(`${verb} ${path} HTTP/1.1\r\n${header}connection: close\r\n\r\n`));

        expect(response.status).toBe(status);
        expect(response.headers).toMatchObject({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
        if (format === 'problem') {
          expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(JSON.parse(response.body)).toMatchObject({ type: `urn:softpos:problem:${type}`, title, status, detail });
        } else {
          expect(JSON.parse(response.body)).toEqual({ code: 10000, msg: detail });
        }
      }),
      { numRuns: 40 },
    );
    // HTTP/1.0 needs no Host: such a request is served as any other.
    const old = await sendRaw(port, bytes('GET /health/live HTTP/1.0\r\n\r\n'));
    expect(old.status).toBe(200);
  });

  it('should still serve well-formed requests on new connections afterwards', async () => {
    const response = await sendRaw(port, bytes(head(`GET ${GATEWAY_PATH} HTTP/1.1`, 'connection: close\r\n'), '\r\n'));
    // No token: the route itself answered (401 in problem details), not the parser.
    expect(response.status).toBe(401);
    expect(response.headers['content-type']).toBe('application/problem+json');
  });
});
