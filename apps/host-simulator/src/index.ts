export * from './host-simulator';
export type { SimulatorStats } from './engine/simulator-stats';
export * from './config';
