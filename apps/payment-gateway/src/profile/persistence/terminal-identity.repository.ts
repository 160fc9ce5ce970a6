import {
  GATEWAY_TERMINAL_RELEASED_V1,
  HostAddressCheckReplyV1,
  HostTargetV1,
  isHostMessageFormat,
  TerminalIdentity,
  terminalIdentityOf,
  terminalIdOf,
  terminalReleasedOf,
} from '@app/contracts';
import { HOST_ADDRESS_POLICY, HostAddressPolicy, isUnansweredCheck, OutboxWriter } from '@app/messaging';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** A terminal identity and the PBO that binds (or owns) it. */
export interface TerminalClaim extends TerminalIdentity {
  groupId: string;
}

/** Which acceptances to look at: those bound to these profiles, and these acceptances wherever bound. */
export interface ClaimScope {
  profileIds?: readonly string[];
  acceptanceIds?: readonly string[];
}

interface AcceptanceIdentityRow {
  groupId: string;
  hostMessageFormat: string;
  hostUrl: string | null;
  mid: string;
  tid: string;
}

const identityKey = (identity: TerminalIdentity): string => JSON.stringify([identity.hostMessageFormat, identity.hostAddress, identity.mid, identity.tid]);
const claimKey = (claim: TerminalClaim): string => JSON.stringify([claim.groupId, identityKey(claim)]);

function distinctClaims(rows: AcceptanceIdentityRow[]): TerminalClaim[] {
  const claims = new Map<string, TerminalClaim>();
  for (const row of rows) {
    const identity = terminalIdentityOf(row.hostMessageFormat, row.hostUrl, row.mid, row.tid);
    if (identity) claims.set(claimKey({ ...identity, groupId: row.groupId }), { ...identity, groupId: row.groupId });
  }
  return [...claims.values()];
}

/**
 * A profile whose terminals are its PBO's: not retired, or retired while its device may come back
 * (idled or logged out in merchant-management: `keeps_terminals`, review r14h).
 */
const HOLDS_TERMINALS = '(NOT p.retired OR p.keeps_terminals)';

/** Advisory lock space of the gateway's terminal claims (one key per format, MID and TID). */
const TERMINAL_LOCK_SPACE = 1406_0015;

/** The identities as one JSON parameter for `jsonb_to_recordset`. */
const RECORDSET = `jsonb_to_recordset($1::jsonb) AS v("groupId" text, "hostMessageFormat" text, "hostAddress" text, mid text, tid text)`;

/**
 * Who owns which terminal identity (`terminal_identity`). Every writer of profiles and acceptances
 * (the profile API and the upsert consumer) reads the identities its change touches before it
 * writes and calls {@link reconcile} after, in the same transaction: the identities its live
 * profiles bind are claimed (refused when another PBO owns one), and those no live profile of
 * their owner binds any more are released. A claim takes the row's lock (INSERT … ON CONFLICT DO
 * UPDATE), a release locks its rows before it looks for live bindings in a statement of its own,
 * so a concurrent claim and release of one identity are serialised and neither is lost.
 */
@Injectable()
export class TerminalIdentityRepository {
  private readonly logger = new Logger('TerminalIdentity');

  constructor(
    @Inject(HOST_ADDRESS_POLICY) private readonly hostAddresses: HostAddressPolicy,
    private readonly outbox: OutboxWriter,
  ) {}

  /**
   * The identities of the acceptances in `scope` that carry a MID and a TID, each with the
   * acceptance's PBO; `liveOnly`: only through a profile that holds its terminals (not retired, or
   * retired while its device may come back: {@link HOLDS_TERMINALS}).
   */
  async identitiesOf(manager: EntityManager, scope: ClaimScope, liveOnly: boolean): Promise<TerminalClaim[]> {
    const profileIds = scope.profileIds ?? [];
    const acceptanceIds = scope.acceptanceIds ?? [];
    if (profileIds.length === 0 && acceptanceIds.length === 0) return [];
    const rows: AcceptanceIdentityRow[] = await manager.query(
      `SELECT DISTINCT a.group_id AS "groupId", a.host_message_format AS "hostMessageFormat", a.host_url AS "hostUrl", a.primary_mid AS mid, a.primary_tid AS tid
       FROM acceptance a JOIN profile_acceptance b ON b.acceptance_id = a.id JOIN profile p ON p.id = b.profile_id
       WHERE (b.profile_id = ANY($1::text[]) OR a.id = ANY($2::text[])) AND a.primary_mid <> '' AND a.primary_tid <> ''${liveOnly ? ` AND ${HOLDS_TERMINALS}` : ''}`,
      [profileIds, acceptanceIds],
    );
    return distinctClaims(rows);
  }

  /**
   * Whether the PBO holds the terminal a follow-up goes out on (review r14k): a refund or capture
   * books money in the terminal's batch at the host, which after a release may be another PBO's.
   * The terminal is the format, MID and TID at this host address, as the follow-up's target names
   * it now ({@link targetNow}: an acquirer whose address was edited takes its terminals along,
   * reviews r14l and r14n). True for a format that names no terminal (MOCK).
   */
  async holds(manager: EntityManager, groupId: string, format: string, hostUrl: string | null, mid: string, tid: string): Promise<boolean> {
    return (await this.heldAt(manager, groupId, '=', format, hostUrl, mid, tid)) ?? true;
  }

  /**
   * Whether another PBO holds the terminal at this host (its `terminal_identity` row): a void or a
   * settle there would act on that PBO's terminal (review r14o). False for a format that names no
   * terminal (MOCK).
   */
  async heldByAnother(manager: EntityManager, groupId: string, format: string, hostUrl: string | null, mid: string, tid: string): Promise<boolean> {
    return (await this.heldAt(manager, groupId, '<>', format, hostUrl, mid, tid)) ?? false;
  }

  /** Whether a `terminal_identity` row of the terminal at that host is `groupId`'s (`=`) or another PBO's (`<>`); null for a format that names no terminal. */
  private async heldAt(manager: EntityManager, groupId: string, owner: '=' | '<>', format: string, hostUrl: string | null, mid: string, tid: string): Promise<boolean | null> {
    const identity = terminalIdentityOf(format, hostUrl, mid, tid);
    if (identity === null) return null;
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM terminal_identity WHERE group_id ${owner} $1 AND host_message_format = $2 AND host_address = $3 AND mid = $4 AND tid = $5 LIMIT 1`,
      [groupId, identity.hostMessageFormat, identity.hostAddress, identity.mid, identity.tid],
    );
    return rows.length > 0;
  }

  /**
   * Where a follow-up or a settle of a sale goes (reviews r14n, r14o, r14p): its terminal's host as
   * the PBO's acceptances of the same acquirer name it now. An acquirer whose address was edited (a
   * new IP, a DR site) moves its terminals with it, and the sale's address may no longer answer; but
   * a terminal the merchant now uses through another acquirer is another acquirer's host, which
   * never saw the sale. The same acquirer is the sale's acceptance, or another of the PBO's from the
   * same acquirer profile (`acquirer_ref`, merchant-management's id of it, whatever its name or
   * address); an acceptance stored before it carried one is matched by its name (merchant-management
   * names an acceptance after its acquirer profile, unique within the PBO). Among those that still name the sale's
   * format, MID and TID: one a live profile binds first (the sale's profile, then the sale's own
   * acceptance, then a device that replaced it), else the sale's acceptance; when none does, the
   * sale's own address stands. The target names the transaction's PBO.
   */
  async targetNow(manager: EntityManager, target: HostTargetV1, groupId: string, profileId: string): Promise<HostTargetV1> {
    const rows: Array<{ hostUrl: string | null }> = await manager.query(
      `SELECT a.host_url AS "hostUrl"
       FROM acceptance s
       JOIN acceptance a ON a.group_id = s.group_id
         AND (a.id = s.id OR (s.acquirer_ref IS NOT NULL AND a.acquirer_ref = s.acquirer_ref) OR (s.acquirer_ref IS NULL AND a.acpt_name = s.acpt_name))
       LEFT JOIN LATERAL (
         SELECT bool_or(${HOLDS_TERMINALS}) AS live, bool_or(p.id = $6 AND ${HOLDS_TERMINALS}) AS mine
         FROM profile_acceptance b JOIN profile p ON p.id = b.profile_id WHERE b.acceptance_id = a.id
       ) bound ON true
       WHERE s.id = $5 AND s.group_id = $1
         AND a.host_message_format = $2 AND btrim(a.primary_mid, ' ') = $3 AND btrim(a.primary_tid, ' ') = $4
       ORDER BY bound.live IS NOT TRUE, bound.mine IS NOT TRUE, a.id <> s.id, a.created_at DESC
       LIMIT 1`,
      [groupId, target.hostMessageFormat, terminalIdOf(target.mid), terminalIdOf(target.tid), target.acptId, profileId],
    );
    const now = rows.length === 0 ? target.connUrl : rows[0].hostUrl;
    return { ...target, connUrl: now, groupId };
  }

  /**
   * Claims `after` (the identities the change's live profiles now bind) and releases those of
   * `before` (what they bound before) that no live profile of their owner binds any more. Answers
   * the claims refused because another PBO owns the identity (then the caller rolls back).
   */
  async reconcile(manager: EntityManager, before: TerminalClaim[], after: TerminalClaim[]): Promise<TerminalClaim[]> {
    const refused = await this.claim(manager, after);
    if (refused.length > 0) return refused;
    const kept = new Set(after.map(claimKey));
    await this.release(
      manager,
      before.filter((claim) => !kept.has(claimKey(claim))),
    );
    return [];
  }

  /** Inserts each claim or finds its owner, in key order (two claimers never deadlock on each other); answers the refused ones. */
  private async claim(manager: EntityManager, claims: TerminalClaim[]): Promise<TerminalClaim[]> {
    const wanted = new Map<string, TerminalClaim>();
    const refused: TerminalClaim[] = [];
    for (const claim of claims) {
      const first = wanted.get(identityKey(claim));
      // Two PBOs of one batch want the same terminal: the first listed is tried, the other is refused.
      if (first && first.groupId !== claim.groupId) refused.push(claim);
      else wanted.set(identityKey(claim), claim);
    }
    if (wanted.size === 0) return refused;
    const rows = [...wanted.values()].sort((a, b) => (identityKey(a) < identityKey(b) ? -1 : 1));
    // Every claimer of a (format, MID, TID) waits for the others, whatever host it names: the check
    // of other hosts below then sees a concurrent claimer's row (r14g).
    await manager.query(
      `SELECT pg_advisory_xact_lock(${TERMINAL_LOCK_SPACE}, hashtext(k)) FROM (SELECT DISTINCT k FROM unnest($1::text[]) AS k ORDER BY k) AS ordered`,
      [rows.map((row) => JSON.stringify([row.hostMessageFormat, row.mid, row.tid]))],
    );
    const owners: TerminalClaim[] = await manager.query(
      `INSERT INTO terminal_identity (host_message_format, host_address, mid, tid, group_id)
       SELECT v."hostMessageFormat", v."hostAddress", v.mid, v.tid, v."groupId" FROM ${RECORDSET}
       ORDER BY v."hostMessageFormat", v."hostAddress", v.mid, v.tid
       ON CONFLICT ON CONSTRAINT pk_terminal_identity DO UPDATE SET group_id = terminal_identity.group_id
       RETURNING host_message_format AS "hostMessageFormat", host_address AS "hostAddress", mid, tid, group_id AS "groupId"`,
      [JSON.stringify(rows)],
    );
    for (const owner of owners) {
      const claim = wanted.get(identityKey(owner));
      if (claim && claim.groupId !== owner.groupId) refused.push(claim);
    }
    const taken = new Set(refused.map(identityKey));
    refused.push(...(await this.sameHostElsewhere(manager, rows.filter((row) => !taken.has(identityKey(row))))));
    return refused;
  }

  /**
   * The claims among `claims` whose MID/TID another PBO holds at a host written another way that
   * reaches the same address: `tcp://localhost:7401` against the default `127.0.0.1:7401` (review
   * r14g). The connector names the `ip:port`s of both (`host.address.check.v1` `hostAddresses`,
   * each asked in its own PBO's scope), as its own claim keys them; two that share one are one
   * terminal. Asked only when another PBO holds the MID/TID at another host text; a connector
   * that does not answer leaves the text alone (logged): its own claim still refuses before
   * anything is sent.
   */
  private async sameHostElsewhere(manager: EntityManager, claims: TerminalClaim[]): Promise<TerminalClaim[]> {
    if (claims.length === 0) return [];
    const others: TerminalClaim[] = await manager.query(
      `SELECT t.host_message_format AS "hostMessageFormat", t.host_address AS "hostAddress", t.mid, t.tid, t.group_id AS "groupId"
       FROM terminal_identity t JOIN ${RECORDSET}
         ON t.host_message_format = v."hostMessageFormat" AND t.mid = v.mid AND t.tid = v.tid AND t.group_id <> v."groupId" AND t.host_address <> v."hostAddress"`,
      [JSON.stringify(claims)],
    );
    if (others.length === 0) return [];
    const asked = new Map<string, Promise<string[]>>();
    const addressesOf = (claim: TerminalClaim): Promise<string[]> => {
      const key = JSON.stringify([claim.groupId, claim.hostMessageFormat, claim.hostAddress]);
      let addresses = asked.get(key);
      if (addresses === undefined) asked.set(key, (addresses = this.claimAddressesOf(claim)));
      return addresses;
    };
    const refused: TerminalClaim[] = [];
    for (const claim of claims) {
      const rivals = others.filter((other) => other.hostMessageFormat === claim.hostMessageFormat && other.mid === claim.mid && other.tid === claim.tid);
      if (rivals.length === 0) continue;
      const mine = new Set(await addressesOf(claim));
      if (mine.size === 0) continue;
      for (const rival of rivals) {
        if ((await addressesOf(rival)).some((address) => mine.has(address))) {
          refused.push(claim);
          break;
        }
      }
    }
    return refused;
  }

  /** The `ip:port`s the connector's claim keys a claim's host on (none when it cannot say). */
  private async claimAddressesOf(claim: TerminalClaim): Promise<string[]> {
    if (!isHostMessageFormat(claim.hostMessageFormat)) return [];
    let reply: HostAddressCheckReplyV1;
    try {
      reply = await this.hostAddresses.check({
        groupId: claim.groupId,
        hostMessageFormat: claim.hostMessageFormat,
        ...(claim.hostAddress === '' ? {} : { connUrl: claim.hostAddress }),
      });
    } catch (error) {
      if (!isUnansweredCheck(error)) throw error;
      this.logger.warn(`host.address.check.v1 for ${claim.hostMessageFormat} ${claim.hostAddress || '(default)'}: ${error.message}; compared by its text only`);
      return [];
    }
    return reply.hostAddresses ?? [];
  }

  /**
   * Deletes the claims among `candidates` that no live profile of their PBO binds any more, and
   * announces each through the outbox (`gateway.terminal.released.v1`, same transaction), so the
   * host connector drops that PBO's claims of the terminal too (docs/decisions.md, "A released
   * terminal reaches the connector").
   */
  private async release(manager: EntityManager, candidates: TerminalClaim[]): Promise<void> {
    if (candidates.length === 0) return;
    const parameter = JSON.stringify(candidates);
    // First the lock (waits for a claimer of the same rows to end), then the look at live bindings in a new statement, which sees what it committed.
    const held: TerminalClaim[] = await manager.query(
      `SELECT t.host_message_format AS "hostMessageFormat", t.host_address AS "hostAddress", t.mid, t.tid, t.group_id AS "groupId"
       FROM terminal_identity t JOIN ${RECORDSET}
         ON t.host_message_format = v."hostMessageFormat" AND t.host_address = v."hostAddress" AND t.mid = v.mid AND t.tid = v.tid AND t.group_id = v."groupId"
       ORDER BY t.host_message_format, t.host_address, t.mid, t.tid FOR UPDATE OF t`,
      [parameter],
    );
    if (held.length === 0) return;
    const live = new Set(
      distinctClaims(
        await manager.query(
          `SELECT DISTINCT a.group_id AS "groupId", a.host_message_format AS "hostMessageFormat", a.host_url AS "hostUrl", a.primary_mid AS mid, a.primary_tid AS tid
           FROM acceptance a JOIN profile_acceptance b ON b.acceptance_id = a.id JOIN profile p ON p.id = b.profile_id
           JOIN ${RECORDSET} ON a.group_id = v."groupId" AND a.host_message_format = v."hostMessageFormat" AND btrim(a.primary_mid, ' ') = v.mid AND btrim(a.primary_tid, ' ') = v.tid
           WHERE ${HOLDS_TERMINALS}`,
          [JSON.stringify(held)],
        ),
      ).map(claimKey),
    );
    const unbound = held.filter((claim) => !live.has(claimKey(claim)));
    if (unbound.length === 0) return;
    const [released]: [TerminalClaim[], number] = await manager.query(
      `DELETE FROM terminal_identity t USING ${RECORDSET}
       WHERE t.host_message_format = v."hostMessageFormat" AND t.host_address = v."hostAddress" AND t.mid = v.mid AND t.tid = v.tid AND t.group_id = v."groupId"
       RETURNING t.host_message_format AS "hostMessageFormat", t.host_address AS "hostAddress", t.mid, t.tid, t.group_id AS "groupId"`,
      [JSON.stringify(unbound)],
    );
    const releasedAt = new Date();
    const events = released.flatMap(({ hostMessageFormat, ...claim }) =>
      isHostMessageFormat(hostMessageFormat) ? [{ subject: GATEWAY_TERMINAL_RELEASED_V1, payload: terminalReleasedOf({ ...claim, hostMessageFormat }, releasedAt) }] : [],
    );
    await this.outbox.enqueueMany(manager, events);
  }
}
