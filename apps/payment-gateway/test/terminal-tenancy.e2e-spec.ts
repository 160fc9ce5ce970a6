import { uniqueTid } from '@app/host-protocol/testing/factories';
import { bodyOf, unique } from '@app/testing';
import fc from 'fast-check';
import { saleBody, SaleTestApp, startGatewayWithConnector, Terminal, TransactionView } from './sale-support';

interface SignOnView {
  acptSignOns: Array<{ resultReason: string; hostRespCode: string }>;
}

interface RefusedSignOnView {
  acptSignOns: Array<{ resultReason: string; hostRespCode: string; hostRespMessage: string }>;
}

/**
 * Terminal identities per PBO (issue 14, class 6), end to end in one process: the gateway, the
 * host connector and the ISO 8583 host simulator. Two PBOs whose acceptances name the same host
 * with the same MID and TID (which the gateway refuses for new bindings, but which profiles bound
 * before the claims may still be, or a spelling of the host the gateway cannot tell is the same):
 * the host connector has the last word (docs/decisions.md, "One owner per terminal, whatever the
 * spelling"). The PBO whose request reaches it first owns the terminal; the other's sign-ons and
 * sales are refused before anything is sent, and the owner's key and sales are untouched.
 */
describe('two PBOs with the same MID/TID on a shared host', () => {
  let app: SaleTestApp;

  beforeAll(async () => {
    app = await startGatewayWithConnector({ hostTimeoutMs: 1500, replyMarginMs: 1500, reaskWaitMs: 1000 });
  });

  afterAll(() => app?.close());

  /** The key check value of each PBO's working key for this TID, as the connector stores them. */
  async function keysOf(tid: string): Promise<Record<string, string | null>> {
    const rows = await app.query<{ group_id: string; key_check_value: string | null }>(
      'SELECT group_id, key_check_value FROM host_connector.working_key WHERE tid = $1',
      [tid],
    );
    return Object.fromEntries(rows.map((row) => [row.group_id, row.key_check_value]));
  }

  async function signOn(terminal: Terminal): Promise<void> {
    const reply = bodyOf<SignOnView>(await terminal.pbo.post(`/profiles/${terminal.profileId}/signOn`, {}));
    expect(reply.acptSignOns.map((entry) => [entry.resultReason, entry.hostRespCode])).toEqual([['HostSuccess', '00']]);
  }

  const refusal = (terminal: Terminal) => `MID ${terminal.mid} / TID ${terminal.tid} at the default ISO8583 host is another PBO's terminal; nothing was sent`;

  async function refusedSignOn(terminal: Terminal): Promise<void> {
    const reply = bodyOf<RefusedSignOnView>(await terminal.pbo.post(`/profiles/${terminal.profileId}/signOn`, {}));
    expect(reply.acptSignOns).toEqual([expect.objectContaining({ resultReason: 'InvalidAcceptance', hostRespCode: '', hostRespMessage: refusal(terminal) })]);
  }

  async function pair(): Promise<[Terminal, Terminal]> {
    const mid = `MID${unique()}`.slice(0, 15).toUpperCase();
    const tid = uniqueTid();
    const a = await app.newTerminal({ hostMessageFormat: 'ISO8583', mid, tid });
    // A MID/TID at a host has one owner at the gateway (terminal-ownership.int-spec.ts): B's profile is one bound
    // before the claims existed (or through a host address the gateway cannot tell is A's), made by
    // forgetting A's claim while B's is written. The connector must still keep the terminal A's.
    await app.query('DELETE FROM payment_gateway.terminal_identity WHERE mid = $1 AND tid = $2', [mid, tid]);
    const b = await app.newTerminal({ hostMessageFormat: 'ISO8583', mid, tid });
    expect([a.groupId === b.groupId, a.mid === b.mid && a.tid === b.tid]).toEqual([false, true]);
    return [a, b];
  }

  it("should refuse B's sign-on and sale with A's MID/TID at the connector, leaving A's working key and sales alone", async () => {
    const [a, b] = await pair();
    await signOn(a);
    const before = await keysOf(a.tid);
    expect(before[a.groupId]).toMatch(/^[0-9A-F]{6}$/);

    await refusedSignOn(b);
    const refused = bodyOf<TransactionView>(await b.sale(saleBody(b, { value: '12.00' })), 201);

    expect(refused.tranStatus).toBe('DECLINED');
    expect(JSON.stringify(refused)).toContain(refusal(b));
    expect(JSON.stringify(refused)).not.toContain(a.groupId);
    expect(await keysOf(a.tid)).toEqual(before);
    const sale = bodyOf<TransactionView>(await a.sale(saleBody(a, { value: '12.00' })), 201);
    expect(sale.tranStatus).toBe('APPROVED');
  });

  it('should give the terminal to the PBO whose request came first, whatever the order of sign-ons and sales after', async () => {
    const step = fc.record({ who: fc.constantFrom(0, 1), act: fc.constantFrom('signOn' as const, 'sale' as const) });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const terminals = await pair();
        const owner = terminals[steps[0].who];
        const own: Record<string, string | null> = {};
        for (const { who, act } of steps) {
          const terminal = terminals[who];
          if (terminal !== owner) {
            if (act === 'signOn') await refusedSignOn(terminal);
            else expect(bodyOf<TransactionView>(await terminal.sale(saleBody(terminal, { value: '3.00' })), 201).tranStatus).toBe('DECLINED');
          } else if (act === 'signOn') {
            await signOn(terminal);
            own[terminal.groupId] = (await keysOf(terminal.tid))[terminal.groupId];
            expect(own[terminal.groupId]).toMatch(/^[0-9A-F]{6}$/);
          } else {
            const sale = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal, { value: '3.00' })), 201);
            expect(sale.tranStatus).toBe('APPROVED');
          }
          // Only the owner's key is ever stored: the other PBO's requests never reach the host.
          expect(await keysOf(terminal.tid)).toEqual(own);
        }
      }),
      { numRuns: 8 },
    );
  });
});
