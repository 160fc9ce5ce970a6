// standalone's public face: what benchmarks and system tests may use (eslint.config.js refuses
// deeper imports from outside the app).
export { hostSandboxSettingsFrom, standaloneConfig, standaloneConnectorConfig } from './config/standalone.config';
export type { HostSandboxSettings, StandaloneConfig } from './config/standalone.config';
export { startHostSandbox } from './host-sandbox';
export type { HostSandbox } from './host-sandbox';
export { StandaloneModule } from './standalone.module';
