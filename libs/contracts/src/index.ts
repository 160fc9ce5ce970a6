export * from './host-formats';
export * from './payment-methods';
export * from './iso-codes';
export * from './validation';
export * from './subjects';
export * from './gateway-profile-upsert.v1';
export * from './decode-contract';
export * from './host.v1';
