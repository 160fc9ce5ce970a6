import { HostReversalUpdatedV1 } from '@app/contracts';
import fc from 'fast-check';
import type { ActionReversal } from '../transaction';
import { actionReversalOf, supersedes } from './reversal-state';

/** The states one reversal goes through: queued (0 attempts), refused or unanswered attempts, and maybe an acknowledgement. */
const lifeOf = (reversalId: string, queuedAt: string, refusals: number, acknowledged: boolean): HostReversalUpdatedV1[] => [
  ...Array.from({ length: refusals + 1 }, (_, attempts) => ({ requestId: 'act_a', reversalId, state: 'PENDING' as const, attempts, lastResponseCode: attempts === 0 ? null : '12', queuedAt })),
  ...(acknowledged ? [{ requestId: 'act_a', reversalId, state: 'ACKNOWLEDGED' as const, attempts: refusals + 1, lastResponseCode: '00', queuedAt }] : []),
];

const shown = (events: HostReversalUpdatedV1[]): ActionReversal | null =>
  events.reduce<ActionReversal | null>((current, event) => (supersedes(event, current) ? actionReversalOf(event) : current), null);

describe('which reversal state an action shows', () => {
  it('should show the last state of a reversal whatever the order and repeats its events arrive in', () => {
    fc.assert(
      fc.property(fc.nat({ max: 6 }), fc.boolean(), fc.func(fc.nat()), fc.nat({ max: 3 }), (refusals, acknowledged, order, repeats) => {
        const life = lifeOf('0190a000-0000-7000-8000-000000000001', '2026-11-27T12:00:00.000Z', refusals, acknowledged);
        const delivered = [...life, ...life.slice(0, repeats)].map((event, i) => ({ event, key: order(i) })).sort((a, b) => a.key - b.key).map(({ event }) => event);
        expect(shown(delivered)).toEqual(actionReversalOf(life[life.length - 1]));
      }),
    );
  });

  it('should show the later of two reversals of one request (a late approval’s, after the timeout’s), whichever arrives last', () => {
    const first = lifeOf('0190a000-0000-7000-8000-000000000001', '2026-11-27T12:00:00.000Z', 1, true);
    const second = lifeOf('0190a000-0000-7000-8000-000000000002', '2026-11-27T12:00:05.000Z', 0, false);
    expect(shown([...first, ...second])).toMatchObject({ reversalId: '0190a000-0000-7000-8000-000000000002', state: 'PENDING', attempts: 0 });
    expect(shown([...second, ...first])).toMatchObject({ reversalId: '0190a000-0000-7000-8000-000000000002', state: 'PENDING', attempts: 0 });
  });
});
