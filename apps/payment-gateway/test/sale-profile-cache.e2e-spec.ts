import { GATEWAY_PROFILE_UPSERT_V1, GatewayProfileUpsertV1 } from '@app/contracts';
import { bodyOf, unique } from '@app/testing';
import fc from 'fast-check';
import { ProfileSyncService } from '../src/profile-sync/profile-sync.service';
import { profileBody, upsertPayload } from './factories';
import { saleBody, SaleTestApp, startGatewayWithConnector, Terminal, TransactionView } from './sale-support';
import { expectProblem } from './support';

/**
 * The profile and acceptances a sale reads are kept by the process (docs/decisions.md, "bench:sale:
 * a cheaper sale"): whatever changes them in this process (the PBO's API, an upsert alone or in a
 * batch) is obeyed by the very next sale. The TTL here is an hour, so only that invalidation can
 * make the sales right.
 */

/** What a change leaves of the profile, as a sale obeys it. */
interface ProfileModel {
  /** The PBO's own status (API). */
  disabled: boolean;
  /** merchant-management's lifecycle (upserts). */
  retired: boolean;
  currency: 'MYR' | 'USD';
  visa: boolean;
}

type Change =
  | { kind: 'status'; disabled: boolean }
  | { kind: 'upsert'; batch: boolean; retired: boolean; currency: 'MYR' | 'USD'; visa: boolean };

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('status' as const), disabled: fc.boolean() }),
  fc.record({
    kind: fc.constant('upsert' as const),
    batch: fc.boolean(),
    retired: fc.boolean(),
    currency: fc.constantFrom('MYR' as const, 'USD' as const),
    visa: fc.boolean(),
  }),
);

describe('POST /transaction: the profile a sale reads follows every change made in the process', () => {
  let app: SaleTestApp;

  beforeAll(async () => {
    app = await startGatewayWithConnector({ profileCacheTtlMs: 3_600_000 }, { simulator: false });
  });

  afterAll(() => app?.close());

  /** The sale's answer as the model says it must be: approved, or refused with the reason the first failing check gives. */
  async function expectSaleAsModel(terminal: Terminal, model: ProfileModel): Promise<void> {
    const response = await terminal.sale(saleBody(terminal));
    if (model.disabled || model.retired) return expectProblem(response, 400, new RegExp(`^profile ${terminal.profileId} is DISABLED$`));
    if (model.currency !== 'MYR') return expectProblem(response, 400, new RegExp(`^amount.currency MYR is not the currency USD of profile ${terminal.profileId}$`));
    if (!model.visa) return expectProblem(response, 400, new RegExp(`^profile ${terminal.profileId} has no acceptance for VISA$`));
    expect(bodyOf<TransactionView>(response, 201).tranStatus).toBe('APPROVED');
  }

  it('should refuse the next sale at once when the PBO disables the profile after sales read it, and take the next after it is ACTIVE again', async () => {
    const terminal = await app.newTerminal({ supportedPayments: ['VISA'] });
    const model: ProfileModel = { disabled: false, retired: false, currency: 'MYR', visa: true };
    await expectSaleAsModel(terminal, model);
    await expectSaleAsModel(terminal, model);

    bodyOf(await terminal.pbo.patch(`/profiles/${terminal.profileId}/status`, { status: 'DISABLED' }));
    await expectSaleAsModel(terminal, { ...model, disabled: true });

    bodyOf(await terminal.pbo.patch(`/profiles/${terminal.profileId}/status`, { status: 'ACTIVE' }));
    await expectSaleAsModel(terminal, model);
  });

  it('should obey every change of status, lifecycle, currency and acceptances in the next sale, for any sequence of them', async () => {
    const sync = app.app.get(ProfileSyncService);
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 6 }), async (changes) => {
        const terminal = await app.newTerminal({ supportedPayments: ['VISA'] });
        const model: ProfileModel = { disabled: false, retired: false, currency: 'MYR', visa: true };
        // The sale before any change fills what the process keeps.
        await expectSaleAsModel(terminal, model);
        let version = 1;
        for (const next of changes) {
          if (next.kind === 'status') {
            const response = await terminal.pbo.patch(`/profiles/${terminal.profileId}/status`, { status: next.disabled ? 'DISABLED' : 'ACTIVE' });
            // A retired profile is not activated by the PBO (docs/decisions.md, "A retired profile refuses changes").
            if (model.retired && !next.disabled) expectProblem(response, 409, new RegExp(`^profile ${terminal.profileId} is retired`));
            else {
              bodyOf(response);
              model.disabled = next.disabled;
            }
          } else {
            version += 1;
            const upsert = retirement(terminal, version, next.retired, { currency: next.currency, visa: next.visa });
            const receipt = { consumer: 'test', messageId: `cache-${unique()}`, subject: GATEWAY_PROFILE_UPSERT_V1 };
            if (next.batch) await sync.applyBatch([{ upsert, receipt }]);
            else await sync.apply(upsert, receipt);
            Object.assign(model, { retired: next.retired, currency: next.currency, visa: next.visa });
          }
          await expectSaleAsModel(terminal, model);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('should refuse ACTIVE and a PUT for a retired profile with 409, keep a DISABLED for its return, and change nothing else', async () => {
    const sync = app.app.get(ProfileSyncService);
    const terminal = await app.newTerminal({ supportedPayments: ['VISA'] });
    const path = `/profiles/${terminal.profileId}`;
    const receipt = () => ({ consumer: 'test', messageId: `retired-${unique()}`, subject: GATEWAY_PROFILE_UPSERT_V1 });
    await sync.apply(retirement(terminal, 2, true), receipt());
    const before = bodyOf<{ entityStatus: string }>(await terminal.pbo.get(path));
    expect(before.entityStatus).toBe('DISABLED');

    const retired = new RegExp(`^profile ${terminal.profileId} is retired`);
    expectProblem(await terminal.pbo.patch(`${path}/status`, { status: 'ACTIVE' }), 409, retired);
    expectProblem(await terminal.pbo.put(path, profileBody({ acceptances: [] })), 409, retired);
    expect(bodyOf(await terminal.pbo.get(path))).toEqual(before);
    await expectSaleAsModel(terminal, { disabled: false, retired: true, currency: 'MYR', visa: true });

    // The PBO's own DISABLED is taken and outlives the device's return.
    expect(bodyOf<{ entityStatus: string }>(await terminal.pbo.patch(`${path}/status`, { status: 'DISABLED' })).entityStatus).toBe('DISABLED');
    await sync.apply(retirement(terminal, 3, false), receipt());
    expect(bodyOf<{ entityStatus: string }>(await terminal.pbo.get(path)).entityStatus).toBe('DISABLED');
    expect(bodyOf<{ entityStatus: string }>(await terminal.pbo.patch(`${path}/status`, { status: 'ACTIVE' })).entityStatus).toBe('ACTIVE');
    await expectSaleAsModel(terminal, { disabled: false, retired: false, currency: 'MYR', visa: true });
  });
});

/** merchant-management's push of `terminal`'s profile at `version`: its device retired or in use again. */
function retirement(terminal: Terminal, version: number, retired: boolean, shape: { currency: 'MYR' | 'USD'; visa: boolean } = { currency: 'MYR', visa: true }): GatewayProfileUpsertV1 {
  return upsertPayload({
    profileId: terminal.profileId,
    groupId: terminal.groupId,
    deviceId: terminal.deviceId,
    version,
    currency: shape.currency,
    entityStatus: retired ? 'DISABLED' : 'ACTIVE',
    acceptances: [
      {
        acptName: 'Acquirer A',
        hostMessageFormat: 'MOCK',
        supportedPayments: shape.visa ? ['VISA'] : ['MASTERCARD'],
        primaryMid: terminal.mid,
        primaryTid: terminal.tid,
        extraParams: {},
      },
    ],
  }) as unknown as GatewayProfileUpsertV1;
}
