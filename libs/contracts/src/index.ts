export * from './subjects';
export * from './gateway-profile-upsert.v1';
export * from './decode-contract';
export * from './host.v1';
