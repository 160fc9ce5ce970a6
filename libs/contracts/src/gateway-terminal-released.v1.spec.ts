import fc from 'fast-check';
import { decodeContract } from './decode-contract';
import { GatewayTerminalReleasedV1, terminalReleasedOf } from './gateway-terminal-released.v1';
import { hostKeyOf, terminalIdentityOf } from './host-address';

const hostName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}(\.[a-z][a-z0-9-]{0,10}){0,2}$/);
const port = fc.integer({ min: 1, max: 65535 });
const RELEASED_AT = new Date('2026-11-28T00:00:00.000Z');

describe('gateway.terminal.released.v1: what the gateway tells the connector of a released terminal', () => {
  it('should carry the host as the gateway keys it (the default, a TCP or an HTTP host), and decode as its contract', () => {
    fc.assert(
      fc.property(hostName, port, fc.constantFrom('', '/api', '/api/v2'), fc.constantFrom('tcp', 'https'), (host, at, path, scheme) => {
        const [format, url] = scheme === 'tcp' ? (['ISO8583', `tcp://${host.toUpperCase()}:${at}/`] as const) : (['MPGS_AP', `https://${host}:${at}${path}/`] as const);
        for (const hostUrl of [null, url]) {
          const identity = terminalIdentityOf(format, hostUrl, 'MID000000000042 ', 'T0000042')!;
          const event = terminalReleasedOf({ ...identity, hostMessageFormat: format, groupId: 'grp_a' }, RELEASED_AT);

          expect(event).toEqual({ groupId: 'grp_a', hostMessageFormat: format, hostAddress: hostKeyOf(format, hostUrl), mid: 'MID000000000042', tid: 'T0000042', releasedAt: '2026-11-28T00:00:00.000Z' });
          expect(decodeContract(GatewayTerminalReleasedV1, JSON.parse(JSON.stringify(event)))).toEqual(event);
        }
      }),
    );
  });

  it('should leave out a stored host text the parser cannot read, whatever it holds (credentials, a query, any text)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(hostName, port).map(([host, at]) => `tcp://user:secret@${host}:${at}`),
          fc.tuple(hostName, port).map(([host, at]) => `https://user:secret@${host}:${at}/api`),
          fc.tuple(hostName, port).map(([host, at]) => `tcp://${host}:${at}/path?key=secret`),
          fc.string({ minLength: 1, maxLength: 40 }).filter((text) => text.trim() === text && !/^(tcp|https?):\/\//i.test(text)),
        ),
        (text) => {
          const event = terminalReleasedOf({ hostMessageFormat: text.startsWith('https') ? 'MPGS_AP' : 'ISO8583', hostAddress: text, mid: 'M1', tid: 'T1', groupId: 'grp_a' }, RELEASED_AT);

          expect(event).not.toHaveProperty('hostAddress');
          expect(JSON.stringify(event)).not.toContain('secret');
        },
      ),
    );
  });
});
