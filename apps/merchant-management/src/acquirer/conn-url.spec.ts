import { contractViolation, GatewayProfileUpsertV1, hostKeyOf, HostAuthorizeRequestV1, HostMessageFormat, parseHostUrl } from '@app/contracts';
import fc from 'fast-check';
import { connUrlRefusal } from './conn-url';

/** Addresses the connector takes, of either family. */
const address = fc.oneof(
  fc.tuple(fc.constantFrom('acq.example.com', '10.1.2.3', 'host-a.test'), fc.integer({ min: 1, max: 65535 })).map(([host, port]) => ({ format: 'ISO8583', url: `tcp://${host}:${port}` })),
  fc.constantFrom('https://acq.example.com/api', 'http://10.1.2.3:8080').map((url) => ({ format: 'MPGS_AP', url })),
);

/** `text` with each letter in upper or lower case as `mask` says (bit i: letter i upper). */
function spelt(text: string, mask: number): string {
  let letter = 0;
  return [...text].map((char) => (/[a-z]/i.test(char) ? ((mask >> letter++ % 31) & 1 ? char.toUpperCase() : char.toLowerCase()) : char)).join('');
}

/** An address of either family with its scheme and host name in generated cases (`TCP://ACQ.Example.com:1`). */
const casedAddress = fc
  .tuple(
    fc.oneof(
      fc.tuple(fc.constant('ISO8583'), fc.constant('tcp'), fc.constantFrom('acq.example.com', 'localhost', '10.1.2.3', '[::1]', '[::ffff:10.1.2.3]'), fc.integer({ min: 1, max: 65535 }), fc.constant('')),
      fc.tuple(fc.constant('MPGS_AP'), fc.constantFrom('http', 'https'), fc.constantFrom('acq.example.com', '10.1.2.3', '[::1]'), fc.integer({ min: 1, max: 65535 }), fc.constantFrom('', '/api', '/API/v1')),
    ),
    fc.nat(),
    fc.nat(),
  )
  .map(([[format, scheme, host, port, path], schemeMask, hostMask]) => ({
    format: format as HostMessageFormat,
    written: `${spelt(scheme, schemeMask)}://${spelt(host, hostMask)}:${port}${path}`,
    lower: `${scheme}://${host}:${port}${path}`,
  }));

function upsertWith(format: string, hostUrl: string): Record<string, unknown> {
  return {
    profileId: 'prof_1',
    version: 1,
    profileName: 'Till',
    providerReference: null,
    merchantName: 'Kopi Corner',
    merchantAddr: null,
    mcc: null,
    countryCode: null,
    currency: 'MYR',
    acceptances: [{ acptName: 'Acq', hostMessageFormat: format, supportedPayments: ['VISA'], primaryMid: 'MID1', primaryTid: 'TID1', hostUrl, extraParams: {} }],
    groupId: 'grp_1',
    merchantId: 'M1',
    deviceId: 'dev-1',
  };
}

function authorizeWith(format: string, connUrl: string): Record<string, unknown> {
  return {
    requestId: 'req_1',
    target: { hostMessageFormat: format, connUrl, acptId: 'acpt_1', mid: 'MID000000000001', tid: 'TID00001' },
    kind: 'SALE',
    amount: { minor: '1000', currency: '458' },
    card: { emvTlv: '5A0847617390010100105F2403271231', entryMode: 'NFC' },
    merchant: { timeZone: 'Asia/Kuala_Lumpur', name: 'Kopi Corner Sdn Bhd', city: 'Kuala Lumpur', country: 'MY', mcc: '5814' },
  };
}

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

  // r14c item 1: `TCP://LOCALHOST:46651` was taken here, then the upsert's case-sensitive pattern dead-lettered the profile.
  it('should take a scheme and host name in any case, and so should every contract that carries the address on, reading it as the lower-case spelling', () => {
    fc.assert(
      fc.property(casedAddress, ({ format, written, lower }) => {
        expect(connUrlRefusal(format, written)).toBeNull();
        expect(contractViolation(GatewayProfileUpsertV1, upsertWith(format, written))).toBeNull();
        expect(contractViolation(HostAuthorizeRequestV1, authorizeWith(format, written))).toBeNull();
        // One host, one session, one STAN sequence and one terminal identity, however it is spelt (the path is the host's own and keeps its case).
        expect(parseHostUrl(format, written)).toEqual(parseHostUrl(format, lower));
        expect(hostKeyOf(format, written)).toBe(hostKeyOf(format, lower));
      }),
    );
  });
});
