import { FieldSpecJson, MessageSpecJson } from './spec';

/** A spec file literal for tests: ISO-like defaults, overridden per test. */
export function specJson(overrides: Partial<MessageSpecJson> & { fields: Record<string, FieldSpecJson> }): MessageSpecJson {
  return { name: 'TEST', mti: { encoding: 'ascii' }, bitmap: { encoding: 'binary' }, ...overrides };
}

/** A field definition for tests; variable fields get ASCII length digits unless told otherwise. */
export function fieldJson(overrides: Partial<FieldSpecJson> & Pick<FieldSpecJson, 'type' | 'length'>): FieldSpecJson {
  const lengthType = overrides.lengthType ?? 'fixed';
  return {
    description: 'test field',
    lengthType,
    encoding: overrides.type === 'b' ? 'binary' : 'ascii',
    ...(lengthType === 'fixed' ? {} : { prefixEncoding: 'ascii' as const }),
    ...overrides,
  };
}
