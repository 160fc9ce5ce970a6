export * from './dialect';
export * from './test-amounts';
