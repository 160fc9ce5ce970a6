import fastifyHelmet from '@fastify/helmet';
import { Controller, Get, Module, NotFoundException, Query } from '@nestjs/common';
import Fastify from 'fastify';
import { request } from 'node:http';
import { DomainError } from '../errors';
import { createHttpApp } from './http-app';
import { HELMET_OPTIONS } from './security-headers';

/** Status and the security headers (every name helmet sets, as spelt on the wire) of a GET to `port`. */
function get(port: number, path: string): Promise<{ status: number; headers: [string, string][] }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      const pairs: [string, string][] = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
      resolve({ status: res.statusCode!, headers: pairs });
    });
    req.on('error', reject);
    req.end();
  });
}

@Controller('probe')
class ProbeController {
  @Get()
  probe(@Query('fail') fail?: string): { ok: true } {
    if (fail === 'missing') throw new NotFoundException();
    if (fail === 'invalid') throw DomainError.validation('invalid probe');
    return { ok: true };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('security headers of every answer', () => {
  it('should be what @fastify/helmet set with the same options, names spelt alike, on successes, errors and unknown paths', async () => {
    const app = await createHttpApp(ProbeModule, { logger: false, shutdownHooks: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const reference = Fastify();
    await reference.register(fastifyHelmet, { global: true, ...HELMET_OPTIONS });
    reference.get('/probe', async () => ({ ok: true }));
    await reference.listen({ port: 0, host: '127.0.0.1' });
    try {
      const ours = Number(new URL(await app.getUrl()).port);
      const theirs = (reference.server.address() as { port: number }).port;
      const expected = (await get(theirs, '/probe')).headers;
      const helmetNames = new Set(expected.map(([name]) => name).filter((name) => !/^(content-type|content-length|date|connection|keep-alive)$/i.test(name)));
      expect(helmetNames.size).toBeGreaterThan(8);
      const securityOf = (headers: [string, string][]) => headers.filter(([name]) => helmetNames.has(name));
      for (const [path, status] of [
        ['/probe', 200],
        ['/probe?fail=missing', 404],
        ['/probe?fail=invalid', 400],
        ['/nowhere', 404],
      ] as const) {
        const answer = await get(ours, path);
        expect(answer.status).toBe(status);
        expect(securityOf(answer.headers)).toEqual(securityOf(expected));
      }
    } finally {
      await reference.close();
      await app.close();
    }
  });
});
