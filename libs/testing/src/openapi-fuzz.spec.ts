import fc from 'fast-check';
import { join } from 'node:path';
import { answerProblems, FuzzResponse, isCallOf, operationsOf, percentEncode, readOpenApiDocument, requestsFor, urlOf } from './openapi-fuzz';

/** The fuzz suite's own parts: what it reads of the documents, how it encodes, and that its checks can fail. */

const DOCUMENTS = ['merchant-management', 'payment-gateway', 'transactions'];
const noIds = { own: () => [], others: () => [] };

function response(status: number, body: unknown, headers: Record<string, string> = {}): FuzzResponse {
  return { status, headers: new Headers(headers), text: typeof body === 'string' ? body : JSON.stringify(body) };
}

const REQUEST_ID = 'req_6Qe2mG1cR7yT0pV9sB4nJw';
const problem = (status: number, type: string) => ({ type: `urn:softpos:problem:${type}`, title: 'T', status, detail: 'what went wrong', requestId: REQUEST_ID });

describe('openapi-fuzz', () => {
  it('should read every operation of every committed document and draw requests for each, with every path parameter filled', () => {
    for (const document of DOCUMENTS) {
      const operations = operationsOf(document, readOpenApiDocument(join(__dirname, '..', '..', '..', 'docs', 'openapi', `${document}.json`)));
      expect(operations.length).toBeGreaterThan(5);
      for (const operation of operations) {
        for (const request of fc.sample(requestsFor(operation, noIds), { numRuns: 5 })) expect(urlOf(operation, request)).not.toMatch(/[{}]/);
      }
    }
  });

  it('should recognise a call of an operation by its path, and no call of another method or of a longer or shorter path', () => {
    const operations = DOCUMENTS.flatMap((document) => operationsOf(document, readOpenApiDocument(join(__dirname, '..', '..', '..', 'docs', 'openapi', `${document}.json`))));
    const segment = fc.stringMatching(/^[A-Za-z0-9_.~-]{1,12}$/);
    for (const operation of operations) {
      const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      fc.assert(
        fc.property(fc.array(segment, { minLength: names.length, maxLength: names.length }), segment, (values, extra) => {
          let index = 0;
          const path = operation.path.replace(/\{[^}]+\}/g, () => values[index++]);
          expect(isCallOf(operation, operation.method.toLowerCase(), `${path}?pageSize=1`)).toBe(true);
          expect(isCallOf(operation, operation.method === 'GET' ? 'DELETE' : 'GET', path)).toBe(false);
          expect(isCallOf(operation, operation.method, `${path}/${extra}`)).toBe(false);
          expect(isCallOf(operation, operation.method, path.slice(0, path.lastIndexOf('/')))).toBe(false);
        }),
        { numRuns: 20 },
      );
    }
  });

  it('should percent-encode any well-formed text so that it decodes back, and a lone surrogate as bytes no UTF-8 decoder takes', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (text) => expect(decodeURIComponent(percentEncode(text))).toBe(text)));
    fc.assert(
      fc.property(fc.string({ maxLength: 5 }), fc.integer({ min: 0xd800, max: 0xdfff }), (text, unit) => {
        expect(() => decodeURIComponent(percentEncode(`${text}${String.fromCharCode(unit)}`))).toThrow(URIError);
      }),
    );
  });

  it('should pass documented errors and flag every way an answer leaves the documented format', () => {
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const problemJson = { 'content-type': 'application/problem+json', 'x-service-request-id': REQUEST_ID };
    expect(answerProblems('envelope', response(400, { msg: 'mchName is required', code: 10000 }, json))).toEqual([]);
    expect(answerProblems('envelope', response(401, { msg: 'no token', code: 11000, data: 401 }, json))).toEqual([]);
    expect(answerProblems('envelope', response(200, { msg: 'SUCCESS', code: 0, data: {} }, json))).toEqual([]);
    expect(answerProblems('problem', response(404, problem(404, 'not-found'), problemJson))).toEqual([]);

    expect(answerProblems('envelope', response(500, { msg: 'unexpected error, id x', code: 50000 }, json))).toEqual([
      'HTTP 500: {"msg":"unexpected error, id x","code":50000}',
      'code 50000 with HTTP 500 is not in the documented table',
    ]);
    expect(answerProblems('envelope', response(404, { code: 14000 }, json))).toEqual(['msg is not a sentence: undefined']);
    expect(answerProblems('envelope', response(404, { msg: 'x', code: 13000 }, json))).toEqual(['code 13000 with HTTP 404 is not in the documented table']);
    expect(answerProblems('envelope', response(414, 'URI Too Long', { 'content-type': 'text/plain' }))).toEqual([
      'content type text/plain, not application/json',
      'error body is not a JSON object: URI Too Long',
    ]);
    expect(answerProblems('envelope', response(400, { msg: 'x', code: 10000, statusCode: 400 }, json))).toEqual(['envelope has other keys: statusCode']);
    expect(answerProblems('envelope', response(200, { id: 1 }, json))).toEqual(['a success that is not the envelope: {"id":1}']);
    expect(answerProblems('envelope', response(400, { msg: 'Error: x\n    at Foo.bar (/app/x.ts:1:2)', code: 10000 }, json))).toEqual(['the body carries a stack trace']);

    expect(answerProblems('problem', response(404, problem(404, 'not-found'), { ...problemJson, 'x-service-request-id': 'req_other' }))).toEqual([
      `requestId "${REQUEST_ID}" differs from the x-service-request-id header "req_other"`,
    ]);
    expect(answerProblems('problem', response(400, problem(404, 'not-found'), problemJson))).toEqual([
      'type "urn:softpos:problem:not-found" is not the documented one for HTTP 400',
      'status 404 in the body, 400 on the wire',
    ]);
    expect(answerProblems('problem', response(400, { msg: 'x', code: 10000 }, json))).toEqual([
      'content type application/json; charset=utf-8, not application/problem+json',
      'problem details keys are code,msg',
      'type undefined is not the documented one for HTTP 400',
      'no title',
      'status undefined in the body, 400 on the wire',
      'no detail',
      'requestId undefined is not req_ and 16 bytes',
      'requestId undefined differs from the x-service-request-id header null',
    ]);
  });
});
