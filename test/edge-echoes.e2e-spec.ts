import { DEFAULT_BODY_VALUES, DEVICE_TOKEN_AUDIENCE, signPboToken, UNSUPPORTED_MEDIA_TYPE_MESSAGE } from '@app/common';
import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { startTestApp, TEST_AUTH, TestApp } from '@app/testing';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { StandaloneModule } from '../apps/standalone/src';

/**
 * What the edge repeats of a hostile request (outside review of issue 14, classes 1 and 9): a
 * field or parameter name is named cut and escaped, never as sent; a body that is not JSON is
 * told so without its text; a body with more values than the route takes, or an unknown field,
 * is refused before validation walks it; a JSON body in another charset is 415; a token without
 * `exp` is 401. Every answer in the format of its path (problem details under the gateway's
 * namespace, the envelope elsewhere).
 */

const GATEWAY_PROFILES = `/${DEFAULT_GATEWAY_NAMESPACE}/api/v1/profiles`;

/** Text that stands for what the client sent. */
const marker = fc.stringMatching(/^[a-z0-9]{10}$/).map((text) => `zq${text}`);

/** A name a client might choose to break an answer: long, with controls, markup or quotes. */
const hostileName = fc
  .tuple(
    marker,
    fc.constantFrom('', '<script>alert(1)</script>', '\u0001\u001b[31m', '"},{"x":"', '\u2028', '\u202e', '\ud83d\ude00', '&amp;'),
    fc.integer({ min: 64, max: 200_000 }),
  )
  .map(([mark, hostile, padding]) => ({ mark, name: `${hostile}${mark}${'N'.repeat(padding)}${mark}` }));

describe('the edge repeats nothing of a hostile request unbounded', () => {
  let app: TestApp;
  let pbo: string;

  beforeAll(async () => {
    app = await startTestApp((options) => StandaloneModule.register(options), {}, false);
    pbo = await signPboToken(TEST_AUTH, 'grp_echoes', 600);
  });

  afterAll(() => app.close());

  const send = (path: string, init: { method?: string; body?: string; headers?: Record<string, string>; token?: string | null } = {}) =>
    fetch(`${app.baseUrl}${path}`, {
      method: init.method ?? 'POST',
      headers: { ...(init.token === null ? {} : { authorization: `Bearer ${init.token ?? pbo}` }), ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.body,
    });

  /** The status, the answer's text and its message (msg of the envelope, detail of problem details). */
  async function answer(response: Response): Promise<{ status: number; text: string; message: string }> {
    const text = await response.text();
    const body = JSON.parse(text) as { msg?: string; detail?: string };
    return { status: response.status, text, message: body.msg ?? body.detail ?? '' };
  }

  it('should name an unknown field or parameter by its first 64 characters, escaped, whatever its length and characters', async () => {
    await fc.assert(
      fc.asyncProperty(hostileName, fc.constantFrom('activate', 'merchant', 'gateway', 'query', 'nested'), async ({ mark, name }, where) => {
        const response =
          where === 'activate'
            ? await send('/api/sdk/v1/activate', { token: null, body: JSON.stringify({ activationCode: '123456789012', [name]: 1 }) })
            : where === 'merchant'
              ? await send('/api/openapi/v1/mchInfo', { body: JSON.stringify({ [name]: 1 }) })
              : where === 'gateway'
                ? await send(GATEWAY_PROFILES, { body: JSON.stringify({ [name]: 1 }) })
                : where === 'query'
                  ? await send(`/api/openapi/v1/mchInfo?${encodeURIComponent(name.slice(0, 4000))}=1`, { method: 'GET' })
                  : await send('/api/openapi/v1/mchInfo', { body: JSON.stringify({ mchName: 'K', currency: 'MYR', contactName: 'A', contactEmail: 'a@b.co', additionalData: { [name]: '\u0000' } }) });
        const { status, text, message } = await answer(response);

        expect(status).toBe(400);
        expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2048);
        // The name is cut before its second marker, and nothing a viewer could render as markup or a control is left.
        expect(text.split(mark).length - 1).toBeLessThanOrEqual(1);
        expect(message).not.toMatch(/[<>&\u0000-\u001f\u007f-\u009f\u2028\u202e]/);
        expect(message).toMatch(where === 'nested' ? /^additionalData\.\S+ must not contain a NUL character$/ : /^\S+ is not an accepted field$/);
        expect(message).toContain('…');
      }),
      { numRuns: 40 },
    );
  });

  // r14c item 7: GET /nope%00 named a field `*`.
  it('should name the path when a URL no route takes holds a NUL, in the path format', async () => {
    for (const [path, field] of [
      ['/nope%00', 'the path'],
      ['/api/openapi/v1/nope%00/x', 'the path'],
      [`/${DEFAULT_GATEWAY_NAMESPACE}/api/v1/nope%00`, 'the path'],
    ]) {
      const { status, message } = await answer(await send(path, { method: 'GET' }));
      expect({ path, status, message }).toEqual({ path, status: 400, message: `${field} must not contain a NUL character` });
    }
  });

  it('should tell a body that is not JSON so without quoting it', async () => {
    await fc.assert(
      fc.asyncProperty(marker, fc.constantFrom('', '{', '{"a":', '[1,', 'x', '{"a":1}}'), fc.constantFrom('/api/sdk/v1/activate', '/api/openapi/v1/mchInfo', GATEWAY_PROFILES), async (mark, prefix, path) => {
        const { status, text, message } = await answer(await send(path, { body: `${prefix}${mark.toUpperCase()}${mark}` }));

        expect(status).toBe(400);
        expect(text.toLowerCase()).not.toContain(mark);
        expect(message).toMatch(/^the request body is not valid JSON( \(at position \d+\)| \(it ends too early\))?$/);
      }),
      { numRuns: 20 },
    );
  });

  it(`should refuse a body of more than ${DEFAULT_BODY_VALUES} values, or with an unknown field, at once, and still take the largest bodies of the APIs`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: DEFAULT_BODY_VALUES + 1, max: 20_000 }), fc.constantFrom('/api/sdk/v1/activate', '/api/openapi/v1/mchInfo', GATEWAY_PROFILES), async (keys, path) => {
        const body = JSON.stringify({ activationCode: '123456789012', deviceInfo: Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, 'v'])) });
        const { status, message } = await answer(await send(path, { body, token: path.includes('sdk') ? null : pbo }));

        expect(status).toBe(400);
        expect(message).toBe(`the request body holds more than ${DEFAULT_BODY_VALUES} values`);
      }),
      { numRuns: 8 },
    );
    // Within the cap, a free-form object is the client's: the activation then fails on the code alone.
    const within = JSON.stringify({ activationCode: '123456789012', deviceInfo: Object.fromEntries(Array.from({ length: DEFAULT_BODY_VALUES - 3 }, (_, i) => [`k${i}`, 'v'])) });
    expect((await answer(await send('/api/sdk/v1/activate', { body: within, token: null }))).status).toBe(404);
  });

  it('should read a JSON body only in UTF-8: any other charset is 415 in the path format', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('latin1', 'ISO-8859-1', 'utf-16', 'us-ascii', 'windows-1252', '"utf-16le"'),
        fc.constantFrom({ path: GATEWAY_PROFILES, problem: true }, { path: '/api/openapi/v1/mchInfo', problem: false }),
        async (charset, { path, problem }) => {
          const response = await send(path, { body: '{}', headers: { 'content-type': `application/json; charset=${charset}` } });
          const { status, text } = await answer(response);

          expect(status).toBe(415);
          if (problem) expect(JSON.parse(text)).toMatchObject({ type: 'urn:softpos:problem:unsupported-media-type', status: 415, detail: UNSUPPORTED_MEDIA_TYPE_MESSAGE });
          else expect(JSON.parse(text)).toEqual({ code: 10000, msg: UNSUPPORTED_MEDIA_TYPE_MESSAGE });
        },
      ),
      { numRuns: 12 },
    );
    for (const charset of ['utf-8', 'UTF-8', 'utf8', '"utf-8"']) {
      const { status } = await answer(await send('/api/openapi/v1/mchInfo', { body: '{}', headers: { 'content-type': `application/json; charset=${charset}` } }));
      // Read as JSON: refused by validation (a required field), not by its media type.
      expect(status).toBe(400);
    }
  });

  it('should take no body at POST /api/v2/current but none or {}', async () => {
    for (const body of [undefined, '{}']) expect((await send('/api/v2/current', { body })).status).not.toBe(400);
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1, maxKeys: 20 }), async (fields) => {
        const text = JSON.stringify(fields);
        const { status, message } = await answer(await send('/api/v2/current', { body: text }));
        // A prototype key anywhere (fc.jsonValue makes `__proto__` keys) is refused while parsing, before any field is looked at.
        const prototypeKey = /"(__proto__|constructor|prototype)":/.test(text);
        expect({ status, message }).toEqual({
          status: 400,
          message: expect.stringMatching(
            prototypeKey ? /^the request body holds a __proto__ key or a constructor\.prototype, which are refused|.* is not an accepted field$/ : / is not an accepted field$/,
          ) as string,
        });
      }),
      { numRuns: 15 },
    );
    for (const body of ['[]', '1', '"x"', 'null']) {
      expect(await answer(await send('/api/v2/current', { body }))).toMatchObject({ status: 400, message: 'this operation takes no request body (or {})' });
    }
  });

  it('should refuse a PBO or device token without exp with 401 in the path format', async () => {
    const unexpiring = (audience?: string) => {
      const jwt = new SignJWT({ groupId: 'grp_echoes' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setSubject(audience ? 'dev_1' : 'grp_echoes');
      return (audience ? jwt.setAudience(audience) : jwt).sign(new TextEncoder().encode(audience ? TEST_AUTH.deviceSecret : TEST_AUTH.secret));
    };
    const pboToken = await unexpiring();
    for (const path of [GATEWAY_PROFILES, '/api/openapi/v1/mchInfo', '/api/v2/order', '/api/v2/current']) {
      const { status, text } = await answer(await send(path, { method: 'GET', token: pboToken }));
      expect(status).toBe(401);
      if (path === GATEWAY_PROFILES) expect(JSON.parse(text)).toMatchObject({ status: 401, detail: 'bearer token is invalid' });
      else expect(JSON.parse(text)).toMatchObject({ code: 11000, msg: 'bearer token is invalid' });
    }
    const { status, text } = await answer(await send('/api/sdk/v1/config', { method: 'GET', token: await unexpiring(DEVICE_TOKEN_AUDIENCE) }));
    expect(status).toBe(401);
    expect(JSON.parse(text)).toMatchObject({ code: 11000, msg: 'device token is invalid' });
  });

  it('should send the security headers of every answer on answers written before Fastify (raw parser errors)', async () => {
    const normal = await send('/api/openapi/v1/mchInfo', { method: 'GET' });
    const security = ['content-security-policy', 'strict-transport-security', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy', 'x-content-type-options'];
    const expected = Object.fromEntries(security.map((name) => [name, normal.headers.get(name)]));
    expect(Object.values(expected).every((value) => typeof value === 'string' && value.length > 0)).toBe(true);

    const raw = await rawAnswer(Number(new URL(app.baseUrl).port), Buffer.from('GET /api/openapi/v1/mchInfo HTTP/1.1\r\nhost: 127.0.0.1\r\nx-probe: a\u007fb\r\n\r\n', 'latin1'));
    expect(raw.status).toBe(400);
    expect(Object.fromEntries(security.map((name) => [name, raw.headers[name]]))).toEqual(expected);
  });
});

/** Sends bytes on a fresh socket and reads the status line and headers of the answer. */
async function rawAnswer(port: number, request: Buffer): Promise<{ status: number; headers: Record<string, string> }> {
  const { connect } = await import('node:net');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]), headers });
    });
  });
}
