export * from './iso-codes';
export * from './payment-method';
