import fc from 'fast-check';
import { connUrlRefusal } from './conn-url';

/** Addresses the connector takes, of either family. */
const address = fc.oneof(
  fc.tuple(fc.constantFrom('acq.example.com', '10.1.2.3', 'host-a.test'), fc.integer({ min: 1, max: 65535 })).map(([host, port]) => ({ format: 'ISO8583', url: `tcp://${host}:${port}` })),
  fc.constantFrom('https://acq.example.com/api', 'http://10.1.2.3:8080').map((url) => ({ format: 'MPGS_AP', url })),
);

describe('connUrlRefusal: what is stored is what the connector reads', () => {
  it('should take an address of the format as written', () => {
    fc.assert(fc.property(address, ({ format, url }) => expect(connUrlRefusal(format, url)).toBeNull()));
  });

  it('should refuse spaces around it, a query or a fragment, which the connector would drop or misread', () => {
    fc.assert(
      fc.property(address, fc.constantFrom(' ', '\t', '?x', '#x', '?', '#', '?a=1#b'), fc.boolean(), ({ format, url }, extra, before) => {
        const spaced = extra.trim() === '';
        const text = spaced ? (before ? `${extra}${url}` : `${url}${extra}`) : `${url}${extra}`;
        expect(connUrlRefusal(format, text)).toBe(spaced ? 'must not start or end with spaces' : 'takes no query (?) or fragment (#)');
      }),
    );
  });
});
