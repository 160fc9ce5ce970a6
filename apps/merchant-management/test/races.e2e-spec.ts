import { EnvelopeBody, HttpResponse, queryDatabase } from '@app/testing';
import fc from 'fast-check';
import { acquirerBody, createCardAcquirer, createEmv, createMerchant, dataOf } from './factories';
import { MerchantManagementTestApp, startMerchantManagement } from './support';
import { Pbo, V1 } from './device-support';

/**
 * Write skew (issue 14, class 5): every rule that reads one table to guard another, hammered by
 * concurrent requests on the PostgreSQL server (fast-check draws how many and in which order they
 * are sent). Each ends consistent: no 5xx, exactly one delete of an object answers 200, and the
 * rows obey the rule afterwards.
 */

type Response = HttpResponse<EnvelopeBody>;

const outcome = (response: Response) => `${response.status}/${response.body.code}`;

/** Each request as a thunk, sent together in the drawn order; the answers in the order given. */
async function together(requests: (() => Promise<Response>)[], order: number[]): Promise<Response[]> {
  const answers: Response[] = new Array<Response>(requests.length);
  await Promise.all(order.map(async (index) => (answers[index] = await requests[index]())));
  return answers;
}

/** A permutation of 0..n-1. */
const orderOf = (n: number) => fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n });

/** How many concurrent requests, and the order they leave in. */
const burst = (min: number, max: number) => fc.integer({ min, max }).chain((n) => fc.tuple(fc.constant(n), orderOf(n)));

/**
 * A delete of a parent racing writes that need it: either some writes went first (the delete is
 * refused, 409, and every write succeeded) or the delete did (every write after it finds no
 * parent, 404). Answers how many writes succeeded.
 */
function expectDeleteOrWrites(deleted: string, writes: string[]): number {
  const succeeded = writes.filter((answer) => answer === '200/0').length;
  expect({ deleted, writes: writes.filter((answer) => answer !== '200/0') }).toEqual(
    succeeded > 0 ? { deleted: '409/10000', writes: [] } : { deleted: '200/0', writes: writes.map(() => '404/14000') },
  );
  return succeeded;
}

describe('merchant-management: rules that span tables hold under concurrent requests', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });

  afterAll(() => app.close());

  const rowsOf = <T>(sql: string, params: unknown[]) => queryDatabase<T>(app.database.url, sql, params);

  /** Bindings of a PBO whose method its acquirer profile no longer lists, or whose EMV config is not in the profile's emvList for it. */
  const misfits = (pbo: Pbo) =>
    rowsOf<{ binding: number; method: string }>(
      `SELECT b.id AS binding, m.payment_method_code AS method
         FROM merchant_management.payment_binding b
         JOIN merchant_management.payment_method_binding m ON m.binding_id = b.id
         JOIN merchant_management.acquirer_profile a ON a.id = b.acquirer_profile_id
        WHERE b.group_id = $1
          AND (NOT a.method_list ? m.payment_method_code
               OR EXISTS (SELECT 1 FROM merchant_management.payment_method_emv e
                           WHERE e.method_id = m.id
                             AND NOT EXISTS (SELECT 1 FROM merchant_management.acquirer_profile_emv x
                                              WHERE x.profile_id = a.id AND x.emv_id = e.emv_id AND x.payment_method = m.payment_method_code)))`,
      [pbo.groupId],
    );

  it('should never leave a merchant bound to a method its acquirer profile stopped listing (acquirer PUT racing binds of that method)', async () => {
    await fc.assert(
      fc.asyncProperty(burst(2, 8), async ([n, order]) => {
        const pbo = await app.newPbo();
        const acquirer = await createCardAcquirer(pbo, ['01', '02']);
        const merchants = await Promise.all(Array.from({ length: n - 1 }, () => createMerchant(pbo)));
        const bindMastercard = (mchId: string) => () =>
          pbo.post(`${V1}/mchInfo/payment/${mchId}`, {
            acquirerProfileId: String(acquirer.id),
            currency: 'MYR',
            paymentMethods: [{ paymentMethodCode: '02' }],
          });
        const dropMastercard = () =>
          pbo.put(`${V1}/acquirer/${acquirer.id}`, { methodList: JSON.stringify({ '01': [] }), emvList: JSON.stringify({ '01': acquirer.emvs['01'] }) });

        const answers = await together([dropMastercard, ...merchants.map((m) => bindMastercard(m.mchId))], order);

        const [put, ...binds] = answers.map(outcome);
        const bound = binds.filter((answer) => answer === '200/0').length;
        // Either the PUT went first (every later bind refused: the method is gone) or some binds did (the PUT refused: in use).
        expect({ put, binds: binds.filter((answer) => !['200/0', '400/10000'].includes(answer)) }).toEqual({
          put: bound > 0 ? '409/10000' : '200/0',
          binds: [],
        });
        expect(await misfits(pbo)).toEqual([]);
      }),
      { numRuns: 8 },
    );
  });

  it('should refuse an EMV config delete or the acquirer creates that list it, never a 500, and leave no profile listing a deleted config', async () => {
    await fc.assert(
      fc.asyncProperty(burst(2, 8), async ([n, order]) => {
        const pbo = await app.newPbo();
        const emvId = await createEmv(pbo, { paymentMethod: '01' });
        const create = () => pbo.post(`${V1}/acquirer`, acquirerBody({ '01': [emvId] }));
        const remove = () => pbo.delete(`${V1}/emv/${emvId}`);

        const [deleted, ...created] = (await together([remove, ...Array.from({ length: n - 1 }, () => create)], order)).map(outcome);

        const made = expectDeleteOrWrites(deleted, created);
        const listed = await rowsOf(`SELECT 1 FROM merchant_management.acquirer_profile_emv WHERE emv_id = $1`, [emvId]);
        expect(listed.length).toBe(made);
      }),
      { numRuns: 8 },
    );
  });

  it('should answer exactly one of concurrent deletes of one object with 200 and the others with 404 (EMV config, acquirer profile, merchant, payment config; v1 and legacy)', async () => {
    const kinds = ['emv', 'legacy emv', 'acquirer', 'legacy acquirer', 'merchant', 'legacy merchant', 'payment config'] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...kinds), burst(2, 8), async (kind, [n, order]) => {
        const pbo = await app.newPbo();
        let path: string;
        if (kind.endsWith('emv')) path = `${kind === 'emv' ? V1 : '/api/v2'}/emv/${await createEmv(pbo)}`;
        else if (kind.endsWith('acquirer')) path = `${kind === 'acquirer' ? V1 : '/api/v2'}/acquirer/${(await createCardAcquirer(pbo, ['01'])).id}`;
        else if (kind.endsWith('merchant')) path = `${kind === 'merchant' ? V1 : '/api/v2'}/mchInfo/${(await createMerchant(pbo)).mchId}`;
        else {
          const acquirer = await createCardAcquirer(pbo, ['01']);
          const merchant = await createMerchant(pbo);
          dataOf(await pbo.post(`${V1}/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirer.id), currency: 'MYR' }));
          path = `${V1}/mchInfo/payment/${merchant.mchId}?acquirerProfileId=${acquirer.id}&currency=MYR`;
        }

        const answers = (
          await together(
            Array.from({ length: n }, () => () => pbo.delete(path)),
            order,
          )
        ).map(outcome);

        expect(answers.sort()).toEqual(['200/0', ...Array.from({ length: n - 1 }, () => '404/14000')]);
      }),
      { numRuns: 14 },
    );
  });

  it('should refuse an acquirer profile delete or the binds racing it, never a 500, and leave no binding without its profile', async () => {
    await fc.assert(
      fc.asyncProperty(burst(2, 6), async ([n, order]) => {
        const pbo = await app.newPbo();
        const acquirer = await createCardAcquirer(pbo, ['01']);
        const merchants = await Promise.all(Array.from({ length: n - 1 }, () => createMerchant(pbo)));
        const bind = (mchId: string) => () => pbo.post(`${V1}/mchInfo/payment/${mchId}`, { acquirerProfileId: String(acquirer.id), currency: 'MYR' });

        const [deleted, ...binds] = (await together([() => pbo.delete(`${V1}/acquirer/${acquirer.id}`), ...merchants.map((m) => bind(m.mchId))], order)).map(
          outcome,
        );

        expectDeleteOrWrites(deleted, binds);
      }),
      { numRuns: 8 },
    );
  });

  it('should never leave an acquirer profile listing an EMV config under a method it was moved from (EMV PUT racing acquirer creates)', async () => {
    await fc.assert(
      fc.asyncProperty(burst(2, 6), async ([n, order]) => {
        const pbo = await app.newPbo();
        const emvId = await createEmv(pbo, { paymentMethod: '01' });
        const move = () =>
          pbo.put(`${V1}/emv/${emvId}`, { emvName: 'moved', paymentMethod: '02', currency: 'MYR', params: JSON.stringify({ aid: 'A0000000041010' }) });
        const create = () => pbo.post(`${V1}/acquirer`, acquirerBody({ '01': [emvId] }));

        const answers = (await together([move, ...Array.from({ length: n - 1 }, () => create)], order)).map(outcome);

        expect(answers.filter((answer) => !['200/0', '400/10000', '409/10000'].includes(answer))).toEqual([]);
        const wrong = await rowsOf(
          `SELECT x.profile_id FROM merchant_management.acquirer_profile_emv x JOIN merchant_management.emv_config e ON e.id = x.emv_id WHERE e.id = $1 AND x.payment_method <> e.payment_method`,
          [emvId],
        );
        expect(wrong).toEqual([]);
      }),
      { numRuns: 6 },
    );
  });

  it('should refuse a merchant delete or the device creates and binds racing it, never a 500, and leave no code or binding of a deleted merchant', async () => {
    await fc.assert(
      fc.asyncProperty(burst(2, 8), fc.boolean(), async ([n, order], devices) => {
        const pbo = await app.newPbo();
        const acquirer = await createCardAcquirer(pbo, ['01']);
        const merchant = await createMerchant(pbo);
        const write = devices
          ? () => pbo.post(`${V1}/device`, { mchId: merchant.mchId })
          : () => pbo.post(`${V1}/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirer.id), currency: 'MYR' });

        const [deleted, ...writes] = (
          await together([() => pbo.delete(`${V1}/mchInfo/${merchant.mchId}`), ...Array.from({ length: n - 1 }, () => write)], order)
        ).map(outcome);

        const written = expectDeleteOrWrites(deleted, writes);
        const left = await rowsOf<{ n: string }>(
          `SELECT (SELECT count(*) FROM merchant_management.device WHERE group_id = $1) + (SELECT count(*) FROM merchant_management.payment_binding WHERE group_id = $1) AS n`,
          [pbo.groupId],
        );
        // Binds of one profile and currency merge into one binding.
        expect(Number(left[0].n)).toBe(devices ? written : Math.min(written, 1));
      }),
      { numRuns: 8 },
    );
  });
});
