import fc from 'fast-check';
import { ContractViolationError, decodeContract, MAX_PAYLOAD_DEPTH } from './decode-contract';
import { GatewayProfileUpsertV1 } from './gateway-profile-upsert.v1';

/** A valid upsert as merchant-management would publish it; tests override what they examine. */
function upsertPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    profileId: 'prof_01J9ZK3W6Q8X',
    version: 1,
    profileName: 'Kopi Corner / SN-001',
    providerReference: 'ext-merchant-42',
    merchantName: 'Kopi Corner Sdn Bhd',
    merchantAddr: '1 Jalan Ampang, Kuala Lumpur',
    mcc: '5814',
    countryCode: 'MY',
    currency: 'MYR',
    acceptances: [
      {
        acptName: 'Maybank VISA/MC',
        hostMessageFormat: 'ISO8583',
        supportedPayments: ['VISA', 'MASTERCARD'],
        primaryMid: '000001234567890',
        primaryTid: '12345678',
        extraParams: { subMchDba: 'Kopi Corner' },
      },
    ],
    groupId: 'grp_demo',
    merchantId: 'M000000001',
    deviceId: 'SN-001',
    ...overrides,
  };
}

function violation(payload: unknown): string {
  try {
    decodeContract(GatewayProfileUpsertV1, payload);
  } catch (error) {
    if (error instanceof ContractViolationError) return error.reason;
    throw error;
  }
  throw new Error('payload was accepted');
}

describe('GatewayProfileUpsertV1', () => {
  it('should decode a valid upsert into the contract class', () => {
    const decoded = decodeContract(GatewayProfileUpsertV1, upsertPayload());

    expect(decoded).toBeInstanceOf(GatewayProfileUpsertV1);
    expect(decoded.acceptances[0].supportedPayments).toEqual(['VISA', 'MASTERCARD']);
  });

  it('should accept an empty acceptance list and nulls where the merchant has no value', () => {
    const decoded = decodeContract(
      GatewayProfileUpsertV1,
      upsertPayload({ acceptances: [], providerReference: null, merchantAddr: null, mcc: null, countryCode: null }),
    );

    expect(decoded.acceptances).toEqual([]);
    expect(decoded.mcc).toBeNull();
  });

  it('should reject an unknown field', () => {
    expect(violation(upsertPayload({ colour: 'red' }))).toBe('colour is not an accepted field');
  });

  it('should reject a missing field even when it may be null', () => {
    const { mcc: _mcc, ...withoutMcc } = upsertPayload();

    expect(violation(withoutMcc)).toBe('mcc is required');
  });

  it('should name the acceptance field that breaks the contract', () => {
    const acceptance = { ...(upsertPayload().acceptances as object[])[0], supportedPayments: ['VISA', 'DINERS'] };

    expect(violation(upsertPayload({ acceptances: [acceptance] }))).toMatch(/^acceptances\[0\]\.supportedPayments\b/);
  });

  it('should reject a host format that no host connector speaks, SVC_ENABLER included', () => {
    const acceptance = { ...(upsertPayload().acceptances as object[])[0], hostMessageFormat: 'SVC_ENABLER' };

    expect(violation(upsertPayload({ acceptances: [acceptance] }))).toMatch(/^acceptances\[0\]\.hostMessageFormat must be one of the host message formats MOCK, ISO8583, /);
  });

  it('should reject a profile id without the prof_ prefix', () => {
    expect(violation(upsertPayload({ profileId: '42' }))).toMatch(/^profileId must look like prof_<id>/);
  });

  it('should reject a payload that is not an object', () => {
    expect(violation([upsertPayload()])).toBe('payload must be a JSON object');
  });
});

describe('decodeContract on hostile shapes', () => {
  /** A valid upsert with `inner` buried `depth` levels down an acceptance's extraParams. */
  function nested(depth: number, inner: unknown): Record<string, unknown> {
    let value = inner;
    for (let i = 0; i < depth; i += 1) value = { n: value };
    const payload = upsertPayload();
    (payload.acceptances as Array<Record<string, unknown>>)[0].extraParams = { connUrl: 'tcp://h:1', deep: value };
    return payload;
  }

  it('should refuse a payload nested deeper than MAX_PAYLOAD_DEPTH by name, however deep, without overflowing the stack', () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_PAYLOAD_DEPTH, max: 200_000 }), (depth) => {
        expect(() => decodeContract(GatewayProfileUpsertV1, nested(depth, 1))).toThrow(
          new ContractViolationError('GatewayProfileUpsertV1', `payload nests deeper than ${MAX_PAYLOAD_DEPTH} levels`),
        );
      }),
      { numRuns: 20 },
    );
    // The innermost value of nested(d) sits at depth d + 5 (payload, acceptances, [0], extraParams, deep).
    expect(() => decodeContract(GatewayProfileUpsertV1, nested(MAX_PAYLOAD_DEPTH - 5, 1))).not.toThrow();
  });

  it('should refuse a prototype key anywhere in the payload, naming where', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.constantFrom('__proto__', 'constructor', ...Object.getOwnPropertyNames(Object.prototype)),
        fc.jsonValue(),
        (depth, key, value) => {
          // An own key, as JSON.parse makes it (any value: class-transformer threw a TypeError for a truthy `constructor`).
          const payload = nested(depth, JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}}`) as unknown);
          expect(() => decodeContract(GatewayProfileUpsertV1, payload)).toThrow(
            new RegExp(`^GatewayProfileUpsertV1: acceptances\\.0\\.extraParams\\.deep(\\.n)*\\.${key} is not an accepted field$`),
          );
        },
      ),
    );
  });
});

describe('GatewayProfileUpsertV1: the current activation', () => {
  it("should decode an upsert without activeSdkId (never activated, or an older producer's) and one naming any device id", () => {
    expect(decodeContract(GatewayProfileUpsertV1, upsertPayload()).activeSdkId).toBeUndefined();
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 64 }), (activeSdkId) => {
        expect(decodeContract(GatewayProfileUpsertV1, upsertPayload({ activeSdkId })).activeSdkId).toBe(activeSdkId);
      }),
    );
  });

  it('should refuse an activeSdkId that is empty, too long or not a string, naming it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(''), fc.string({ minLength: 65, maxLength: 80 }), fc.integer(), fc.boolean()), (activeSdkId) => {
        expect(violation(upsertPayload({ activeSdkId }))).toContain('activeSdkId');
      }),
    );
  });
});

// r14c item 8: a NATS payload is JSON too: a number no double holds (parsed as ±Infinity) is refused naming its path, never stored as null.
describe('GatewayProfileUpsertV1: numbers no double holds', () => {
  it('should refuse ±Infinity anywhere in the payload, naming its path', () => {
    fc.assert(
      fc.property(fc.constantFrom(Infinity, -Infinity), fc.constantFrom('x', 'y'), (value, key) => {
        const payload = upsertPayload();
        (payload.acceptances as Array<Record<string, unknown>>)[0].extraParams = { [key]: value };
        expect(violation(payload)).toBe(`acceptances.0.extraParams.${key} is a number no double holds (a JSON number must be finite, at most about 1.8e308)`);
      }),
    );
  });
});
