import { DEFAULT_GATEWAY_NAMESPACE, PlatformOptions } from '@app/runtime';
import { gatewayBase, GatewayClient, startTestApp, TestApp, unique } from '@app/testing';
import { PaymentGatewayAppModule } from '../src/app.module';
import { TransactionSettings } from '../src/transaction/transaction-settings';

/** The gateway API's base path in tests (test apps serve the default GATEWAY_NAMESPACE). */
export const GATEWAY_BASE = gatewayBase(DEFAULT_GATEWAY_NAMESPACE);

// The client and bodyOf live in libs/testing, where the cross-context tests in test/ reach them too.
export { bodyOf, GatewayClient } from '@app/testing';

export interface GatewayTestApp extends TestApp {
  /** A client holding a token of a new PBO group (the gateway knows groups only from tokens and upserts). */
  newPbo(): Promise<GatewayClient>;
  /** A client for `groupId`'s token. */
  clientOf(groupId: string): Promise<GatewayClient>;
}

/** payment-gateway on its own, on a fresh database, over real HTTP. */
export async function startGateway(overrides: Partial<PlatformOptions> = {}, settings: Partial<TransactionSettings> = {}): Promise<GatewayTestApp> {
  const testApp = await startTestApp((options) => PaymentGatewayAppModule.register(options, settings), overrides);
  const clientOf = async (groupId: string) => new GatewayClient(await testApp.clientFor(groupId), groupId, GATEWAY_BASE);
  return { ...testApp, clientOf, newPbo: () => clientOf(unique('grp_')) };
}

/** Asserts a problem-details answer with this status and a detail matching `detail`. */
export function expectProblem(response: { status: number; body: unknown }, status: number, detail: RegExp): void {
  expect(response.status).toBe(status);
  expect(response.body).toMatchObject({ status, detail: expect.stringMatching(detail) as string });
}
