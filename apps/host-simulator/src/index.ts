export * from './host-simulator';
export type { SimulatorStats } from './engine/simulator-stats';
export type { CardAcceptorSeen } from './iso/iso-fields';
export * from './config';
