// host-connector's public face: what other apps, scripts, benchmarks and system tests may use
// (eslint.config.js refuses deeper imports from outside the app).
export { HostConnectorAppModule } from './app.module';
export * from './config/host-connector.config';
export * from './config/app.config';
export { hostConnectorDatabase } from './database';
export { HostConnectorModule } from './host-connector.module';
export type { HostConnectorModuleOptions } from './host-connector.module';
/** The request log, for the system test that crashes a connector mid-request. */
export { RequestLogRepository } from './request-log/persistence/request-log.repository';
/** Terminal claims, for the operator's CLI (`claims list`, `claims release`). */
export { TerminalClaimRepository } from './terminals/persistence/terminal-claim.repository';
export type { TerminalClaimFilter, TerminalClaimRow } from './terminals/persistence/terminal-claim.repository';
/** The reversal queue, for the operator's CLI (`reversals list`, `reversals end`). */
export { ReversalRepository } from './reversal/persistence/reversal.repository';
export type { OperatorReversalRow, ReversalFilter } from './reversal/persistence/reversal.repository';
/** The connector's answer to `host.address.check.v1`, for merchant-management's tests of what it is told. */
export { hostAddressCheckReply } from './routing/host-address';
/** The `ip:port`s a host address reaches as the connector's claim keys them (what `hostAddressCheckReply` resolves with). */
export { socketAddressesOfHost } from './terminals/terminal-owners';
/** The consumer of `gateway.terminal.released.v1` (tests and benchmarks move it onto their own stream). */
export { TERMINAL_RELEASED_CONSUMER, terminalReleasedConsumer } from './terminals/terminal-released.consumer';
