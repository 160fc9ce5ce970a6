export * from './validators';
export * from './validation.pipe';
