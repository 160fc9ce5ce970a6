import { TEST_CARDS, testCardEmv } from '@app/host-protocol';
import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import {
  ApiClient,
  bodyFrom,
  createAcquirer,
  createEmv,
  createMerchant,
  envelopeData,
  expectSuccess,
  merchantManagementClient,
  paymentGatewayClient,
  randomDigits,
  TestApp,
  transactionsClient,
  unique,
  waitFor,
} from '@app/testing';
import type { components as PaymentGatewayComponents } from '@app/testing/openapi/payment-gateway';
import type { components as TransactionsComponents } from '@app/testing/openapi/transactions';
import { randomUUID } from 'node:crypto';
import { PboService } from '../apps/merchant-management/src';

/**
 * Money over HTTP as a PBO and a phone take it, for the journeys and the settlement tests: a PBO
 * onboarded to an acquirer, devices activated on its MID/TID, sales tapped from a test card, orders
 * read back. Every call goes through the clients generated from the committed OpenAPI documents.
 */

export const NAMESPACE = { namespace: DEFAULT_GATEWAY_NAMESPACE };
export const ADMIN_PASSWORD = 'Till-Admin-2468';

export type GatewayTransaction = PaymentGatewayComponents['schemas']['TransactionDto'];
export type OrderDetail = TransactionsComponents['schemas']['LegacyOrderDetailDto'];
export type TestCardName = keyof typeof TEST_CARDS;

/** A PBO with an EMV config, an acquirer profile of one host format, a merchant and the merchant's MYR payment config. */
export interface Acquiring {
  pbo: ApiClient;
  /** The PBO's group. */
  groupId: string;
  acquirer: number;
  /** The acquirer profile's name (what a settlement batch shows as profileName). */
  acquirerName: string;
  mchId: string;
}

/** An activated device: its token and gateway profile. */
export interface Till {
  phone: ApiClient;
  profileId: string;
  deviceId: string;
}

/** What `onboardMerchant` writes over its acquirer profile's and merchant's fields. */
export interface OnboardingOverrides {
  acquirer?: Record<string, unknown>;
  merchant?: Record<string, unknown>;
}

export async function onboardMerchant(app: TestApp, format: string, overrides: OnboardingOverrides = {}): Promise<Acquiring> {
  const created = await app.app.get(PboService).create({ name: unique('PBO '), timeZone: 'Asia/Kuala_Lumpur' });
  const pbo = await app.clientFor(created.groupId);
  const emvId = await createEmv(pbo, { paymentMethod: '01' });
  const acquirerName = unique('Acquirer ');
  const acquirer = await createAcquirer(pbo, { '01': [emvId] }, { profileName: acquirerName, connMessageFormat: format, enablerMsgFormat: null, connUrl: null, ...overrides.acquirer });
  const merchant = await createMerchant(pbo, { country: 'MY', timeZone: 'Asia/Kuala_Lumpur', mcc: '5814', ...overrides.merchant });
  expectSuccess(
    await merchantManagementClient(pbo).POST('/api/openapi/v1/mchInfo/payment/{mchId}', {
      params: { path: { mchId: merchant.mchId } },
      body: { acquirerProfileId: String(acquirer), currency: 'MYR' },
    }),
  );
  return { pbo, groupId: created.groupId, acquirer, acquirerName, mchId: merchant.mchId };
}

/** A TID of 8 characters for a terminal of its own (the simulator keeps totals per terminal). */
export function newTid(): string {
  return `T${randomDigits(7)}`;
}

/**
 * Creates a device of the merchant on `mid`/`tid` (with `fields`, more of its fields for the
 * acquirer), activates it as the phone app does and waits for its profile at the gateway.
 */
export async function activateTill(
  app: TestApp,
  acquiring: Acquiring,
  terminal: { mid: string; tid: string },
  alias = 'Till 1',
  fields: Record<string, string> = {},
): Promise<Till> {
  const { pbo } = acquiring;
  const code = envelopeData(
    await merchantManagementClient(pbo).POST('/api/openapi/v1/device', {
      body: {
        mchId: acquiring.mchId,
        deviceAlias: alias,
        deviceAdmin: ADMIN_PASSWORD,
        extParams: { acquirers: { [acquiring.acquirer]: { acqMid: terminal.mid, acqTid: terminal.tid, ...fields } } },
      },
    }),
  );
  const till = await activated(app, pbo, code.activationCode);
  expect(till.profileId).toBe(code.profileId);
  return till;
}

/** Activates the device of `activationCode` as the phone app does and waits for its profile at the gateway. */
export async function activated(app: TestApp, pbo: ApiClient, activationCode: string): Promise<Till> {
  const activation = envelopeData(
    await merchantManagementClient(app.anonymous).POST('/api/sdk/v1/activate', { body: { activationCode } }),
  );
  const profileId = activation.profileId!;
  await waitFor(
    'the device profile at the gateway',
    async () =>
      (await paymentGatewayClient(pbo).GET('/{namespace}/api/v1/profiles/{profileId}', { params: { path: { ...NAMESPACE, profileId } } })).response.status ===
      200,
  );
  return { phone: new ApiClient(app.baseUrl, activation.deviceToken), profileId, deviceId: activation.deviceId };
}

/** The phone takes `value` MYR from a test card. */
export async function tap(till: Till, value: string, tranType: 'SALE' | 'AUTH' = 'SALE', card: TestCardName = 'visa'): Promise<GatewayTransaction> {
  const minor = Math.round(Number(value) * 100);
  const emvData = testCardEmv({ card, amountMinor: String(minor), currencyNumeric: '458', countryNumeric: '458', date: new Date() });
  const result = await paymentGatewayClient(till.phone).POST('/{namespace}/api/v1/transaction', {
    params: { path: NAMESPACE, header: { 'idempotency-key': randomUUID() } },
    body: { profileId: till.profileId, tranType, amount: { value, currency: 'MYR' }, emvData },
  });
  return bodyFrom(result, 201);
}

/** The order of `tranId` once the transactions context has it (and `until` holds). */
export async function orderOf(pbo: ApiClient, tranId: string, until: (order: OrderDetail) => boolean = () => true): Promise<OrderDetail> {
  let order: OrderDetail | undefined;
  await waitFor(`order ${tranId}`, async () => {
    const result = await transactionsClient(pbo).GET('/api/v2/order/{transactionId}', { params: { path: { transactionId: tranId } } });
    order = result.response.status === 200 ? result.data?.data : undefined;
    return order !== undefined && until(order);
  });
  return order!;
}

/** The gateway's transaction as the PBO reads it. */
export async function gatewayTransaction(pbo: ApiClient, tranId: string): Promise<GatewayTransaction> {
  return bodyFrom(await paymentGatewayClient(pbo).GET('/{namespace}/api/v1/transaction/{tranId}', { params: { path: { ...NAMESPACE, tranId } } }));
}
