import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { gatewayBase, queryDatabase, TestApp, unique, waitFor } from '@app/testing';
import { Acquiring, activateTill, newTid, onboardMerchant, tap, Till } from './money-support';

const GATEWAY_BASE = gatewayBase(DEFAULT_GATEWAY_NAMESPACE);

/** One acceptance's answer to a profile's sign-on. */
export interface AcceptanceSignOn {
  resultReason: string;
  hostRespCode: string;
  hostRespMessage: string;
}

/** The PBO signs the till's profile on at its host (one acceptance): that acceptance's answer. */
export async function signOn(acquiring: Acquiring, till: Till): Promise<AcceptanceSignOn> {
  const response = await acquiring.pbo.post(`${GATEWAY_BASE}/profiles/${till.profileId}/signOn`, undefined);
  expect(response.status).toBe(200);
  const [only] = (response.body as unknown as { acptSignOns: AcceptanceSignOn[] }).acptSignOns;
  return only;
}

/** How a PBO gives up a device for good (issue 14 class 8, r14h, r14i): each frees its terminals in both contexts. */
export const RETIREMENTS = {
  'decommissions the device': (a: Acquiring, till: Till) => a.pbo.delete(`/api/openapi/v1/device/${till.deviceId}?deviceStatus=3`),
  'logs the device out, then decommissions it': async (a: Acquiring, till: Till) => {
    expect((await a.pbo.delete(`/api/openapi/v1/device/${till.deviceId}?deviceStatus=2`)).status).toBe(200);
    return a.pbo.delete(`/api/openapi/v1/device/${till.deviceId}?deviceStatus=3`);
  },
  'idles the device, then decommissions it': async (a: Acquiring, till: Till) => {
    expect((await a.pbo.delete(`/api/openapi/v1/device/${till.deviceId}/idle`)).status).toBe(200);
    return a.pbo.delete(`/api/openapi/v1/device/${till.deviceId}?deviceStatus=3`);
  },
} as const;
export type Retirement = keyof typeof RETIREMENTS;

/** A's refund of its transaction through the gateway's own route: its answer's status, and the refund action's reason or the problem's detail. */
async function refund(acquiring: Acquiring, tranId: string, amount: string): Promise<{ status: number; outcome: string | undefined }> {
  const response = await acquiring.pbo.request('POST', `${GATEWAY_BASE}/transaction/${tranId}/refund`, { amount }, { 'idempotency-key': unique('refund-') });
  const body = response.body as unknown as { actions?: Array<{ actionType: string; reason: string }>; detail?: string };
  return { status: response.status, outcome: body.actions?.filter((action) => action.actionType === 'REFUND').pop()?.reason ?? body.detail };
}

/**
 * Review r14i (MEDIUM): PBO A signs on on the default ISO 8583 host (the connector's claim
 * confirmed) and sells, then gives the device up (`retirement`); PBO B configures the same MID/TID
 * there, activates, signs on (`HostSuccess` 00) and sells. The release travels from the gateway to
 * the connector (`gateway.terminal.released.v1`), so B's first sign-on may still meet A's claim: B
 * retries, as a user would, until it is through. Ends with B's confirmed claim the only one.
 * Review r14j: once released, A's retired profile cannot sign on (400). Review r14k: A's working
 * keys go with the release (no key exchange claims the terminal back), and A's refund of its
 * earlier sale is refused (409: it would book into the terminal's batch at the host, B's next).
 */
export async function terminalMovesToAnotherPbo(app: TestApp, retirement: Retirement): Promise<void> {
  const [mid, tid] = [`SM${unique().replace(/\W/g, '').slice(-10)}`.toUpperCase(), newTid()];
  const claimsOf = () =>
    queryDatabase<{ group_id: string; confirmed: boolean }>(
      app.database.url,
      'SELECT group_id, confirmed_at IS NOT NULL AS confirmed FROM host_connector.terminal_claim WHERE mid = $1 AND tid = $2 ORDER BY group_id',
      [mid, tid],
    );
  const keysOf = (groupId: string) =>
    queryDatabase<{ tid: string }>(app.database.url, 'SELECT tid FROM host_connector.working_key WHERE group_id = $1 AND btrim(tid) = $2', [groupId, tid]);
  const a = await onboardMerchant(app, 'ISO8583');
  const aTill = await activateTill(app, a, { mid, tid });
  expect(await signOn(a, aTill)).toEqual(expect.objectContaining({ resultReason: 'HostSuccess', hostRespCode: '00' }));
  expect(await claimsOf()).toEqual([{ group_id: a.groupId, confirmed: true }]);
  expect(await keysOf(a.groupId)).toHaveLength(1);
  const aSale = await tap(aTill, '9.00');
  expect(aSale.tranStatus).toBe('APPROVED');

  expect((await RETIREMENTS[retirement](a, aTill)).status).toBe(200);
  await waitFor('the release at the connector', async () => (await claimsOf()).length === 0, 20_000);
  const retiredSignOn = await a.pbo.post(`${GATEWAY_BASE}/profiles/${aTill.profileId}/signOn`, undefined);
  expect(retiredSignOn.status).toBe(400);
  expect(JSON.stringify(retiredSignOn.body)).toContain('its device was retired and its terminals released; nothing was sent');
  await waitFor('A’s working keys dropped', async () => (await keysOf(a.groupId)).length === 0, 20_000);
  const refused = { status: 409, outcome: expect.stringMatching(/its terminal \(MID .* \/ TID .*\) was given up .*; take it up with the acquirer$/) as string };
  expect(await refund(a, aSale.tranId, '1.00')).toEqual(refused);
  expect(await claimsOf()).toEqual([]);
  const b = await onboardMerchant(app, 'ISO8583');
  const bTill = await activateTill(app, b, { mid, tid });
  let last: AcceptanceSignOn | undefined;
  await waitFor(
    'B to sign on on the terminal A gave up',
    async () => (last = await signOn(b, bTill)).resultReason === 'HostSuccess',
    20_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}: last answer ${JSON.stringify(last)}`);
  });
  expect(last).toEqual(expect.objectContaining({ resultReason: 'HostSuccess', hostRespCode: '00' }));
  expect((await tap(bTill, '3.00')).tranStatus).toBe('APPROVED');
  expect(await claimsOf()).toEqual([{ group_id: b.groupId, confirmed: true }]);
  // B's terminal now: A's refund would go out on it, under B's key; refused before anything is sent.
  expect(await refund(a, aSale.tranId, '1.00')).toEqual(refused);
  // So would A's void, and A's settle would close B's batch at the host (review r14o): 409, nothing sent.
  const voided = await a.pbo.request('POST', `${GATEWAY_BASE}/transaction/${aSale.tranId}/void`, {}, { 'idempotency-key': unique('void-') });
  expect({ status: voided.status, detail: (voided.body as unknown as { detail?: string }).detail }).toEqual({
    status: 409,
    detail: expect.stringMatching(/cannot be voided here: its terminal \(MID .* \/ TID .*\) is another PBO's now, .*nothing was sent; take it up with the acquirer$/),
  });
  const batches = (await a.pbo.get('/api/v2/settlement?pageSize=-1')).body as unknown as { data: { records: Array<{ batchId: string; acquirerTid: string; state: number }> } };
  const open = batches.data.records.find((batch) => batch.acquirerTid === tid && batch.state === 0);
  const settled = await a.pbo.post('/api/v2/settlement/settle', { batchId: open?.batchId });
  expect({ status: settled.status, msg: (settled.body as unknown as { msg?: string }).msg }).toEqual({
    status: 409,
    msg: expect.stringMatching(/cannot be settled here: the terminal is another PBO's now, .*nothing was sent/),
  });
  expect(await claimsOf()).toEqual([{ group_id: b.groupId, confirmed: true }]);
}
