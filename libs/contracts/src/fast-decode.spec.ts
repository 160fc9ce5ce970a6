import { getMetadataStorage } from 'class-validator';
import { GatewayTransactionUpdatedV1 } from './gateway-transaction.v1';
import { handDecodedFields } from './fast-decode';
import { HostAuthorizeRequestV1, HostResponseV1 } from './host.v1';

/** The properties a contract class declares to class-validator (with `forbidNonWhitelisted`, exactly those a payload may carry). */
function declaredFields(type: abstract new () => object): string[] {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(type as new () => object, '', true, false);
  return [...new Set(metadatas.map((metadata) => metadata.propertyName))].sort();
}

describe('the hand-written decoders', () => {
  // A field added to a contract and not to its hand-written decoder sent every payload carrying it to class-validator (review of
  // acquirerKey, issue 14: each order event and each host reply paid the decorators' cost again); the payloads still decoded,
  // so nothing but a profile showed it.
  it('should know, for every class they build, exactly the fields its contract declares', () => {
    const classes = [...handDecodedFields().entries()];
    expect(classes.length).toBeGreaterThan(10);
    expect(classes.map(([type, fields]) => [type.name, [...fields].sort()])).toEqual(classes.map(([type]) => [type.name, declaredFields(type)]));
  });

  it('should build the hot contracts by hand', () => {
    for (const contract of [GatewayTransactionUpdatedV1, HostAuthorizeRequestV1, HostResponseV1]) expect(handDecodedFields().has(contract)).toBe(true);
  });
});
