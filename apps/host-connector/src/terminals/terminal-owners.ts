import { canonicalHostnameOf, describeTakenTerminal, GatewayTerminalReleasedV1, HostAddress, HostTargetV1, hostKeyOf, terminalIdOf } from '@app/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { HOST_CONNECTOR_CONFIG } from '../config/config.token';
import { HostConnectorConfig } from '../config/host-connector.config';
import { LEGACY_GROUP_SCOPE, groupScopeOf } from '../routing/group-scope';
import { resolveHostAddress } from '../routing/host-address';
import { TerminalAtAddress, TerminalClaimRepository } from './persistence/terminal-claim.repository';

/**
 * The host of a released terminal as the PBO's requests reach it (the event's address, or the
 * format's default, under the allow-list for that PBO); null when it cannot be told (no host in the
 * event, no default, not allowed any more): then the release holds at every address.
 */
export function releasedHostOf(event: GatewayTerminalReleasedV1, config: Pick<HostConnectorConfig, 'defaultUrls' | 'allowList'>): HostAddress | null {
  if (event.hostAddress === undefined) return null;
  const resolved = resolveHostAddress(event.hostMessageFormat, event.hostAddress === '' ? null : event.hostAddress, config, event.groupId);
  return resolved.ok ? resolved.address : null;
}

/** A claim this request holds pending: {@link TerminalOwners.settle} confirms or releases it. */
export interface PendingClaim {
  groupId: string;
  terminals: TerminalAtAddress[];
  keys: string[];
  /** When the claim was made (the database's clock, to the microsecond): a release after it is final for this request. */
  since: string;
  /** This request made the pending claim (else it found another request's of the PBO, still on the wire). */
  made: boolean;
}

/**
 * Whether a request may use its terminal: yes (with the claim to settle once the host answered
 * or not, when it is not confirmed yet), or no with the reply's result and message (nothing was sent).
 */
export type TerminalUse = { ok: true; pending?: PendingClaim } | { ok: false; result: 'REJECTED' | 'HOST_UNAVAILABLE'; message: string };

/**
 * How long a process trusts what it saw: a claim held by the PBO (claims move only when an operator
 * deletes one: this process sees it within this time) and a host name's addresses.
 */
const REMEMBER_MS = 30_000;
const MAX_REMEMBERED = 10_000;

/**
 * `ip:port` as the claim names an address: an IPv6 address in brackets, except one that maps an
 * IPv4 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`), which reaches that IPv4 host and is named as
 * it (`canonicalHostnameOf`, as write-time keys are), so the two spellings are one terminal.
 */
export function socketAddressOf(ip: string, port: number): string {
  return isIP(ip) === 6 ? `${canonicalHostnameOf(`[${ip}]`)}:${port}` : `${ip}:${port}`;
}

/**
 * Every `ip:port` a connection to `address` may reach, sorted, as a claim names them: an IP literal
 * as it is, a name as `lookupName` (the resolver's `getaddrinfo`, by default) finds it.
 */
export async function socketAddressesOfHost(address: HostAddress, lookupName: (hostname: string) => Promise<string[]> = lookupAll): Promise<string[]> {
  const ips = isIP(address.hostname) ? [address.hostname] : await lookupName(address.hostname);
  return [...new Set(ips.map((ip) => socketAddressOf(ip, address.port)))].sort();
}

const lookupAll = async (hostname: string): Promise<string[]> => (await lookup(hostname, { all: true })).map((found) => found.address);

/**
 * The last word on who may use a terminal (docs/decisions.md, "One owner per terminal, whatever
 * the spelling"). Only here is the host's real address known: the acceptance's connUrl or the
 * format's default, the host name resolved as the connection resolves it. A terminal is
 * (format, every `ip:port` the host name resolves to, MID, TID without the pad) and is the PBO's
 * whose request first used it; another PBO's request for it is REJECTED before anything is sent.
 */
@Injectable()
export class TerminalOwners {
  private readonly logger = new Logger('TerminalOwners');
  /** Claims this process saw held by a PBO (`groupId|format|address|mid|tid` to when it looks again), so a sale costs no read. */
  private readonly owned = new Map<string, number>();
  /** Addresses of host names as last resolved (to when it resolves again). */
  private readonly resolved = new Map<string, { ips: string[]; until: number }>();

  constructor(
    private readonly claims: TerminalClaimRepository,
    /** Where a released terminal's host is (its default address, the allow-list its PBO meets). */
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: Pick<HostConnectorConfig, 'defaultUrls' | 'allowList'>,
  ) {}

  /**
   * `use`: `claim`, this use makes the terminal the PBO's when nobody holds it (a sale, a sign-on,
   * a refund, a capture: CLAIMING_OPERATIONS); `check`, only that no other PBO holds it (a void, a
   * settle, a key exchange).
   */
  async mayUse(target: HostTargetV1, address: HostAddress, use: 'claim' | 'check' = 'claim'): Promise<TerminalUse> {
    const groupId = groupScopeOf(target);
    const [mid, tid] = [terminalIdOf(target.mid), terminalIdOf(target.tid)];
    // Callers older than per-PBO terminals name no PBO: nothing to tell them apart by.
    if (groupId === LEGACY_GROUP_SCOPE || mid === '' || tid === '') return { ok: true };
    let addresses: string[];
    try {
      addresses = await this.socketAddressesOf(address);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { ok: false, result: 'HOST_UNAVAILABLE', message: `host ${address.hostname} could not be resolved (${detail}); nothing was sent` };
    }
    const terminals: TerminalAtAddress[] = addresses.map((at) => ({ format: address.format, address: at, mid, tid }));
    const now = Date.now();
    const keys = terminals.map((terminal) => `${groupId}|${terminal.format}|${terminal.address}|${terminal.mid}|${terminal.tid}`);
    if (keys.every((key) => (this.owned.get(key) ?? 0) > now)) return { ok: true };
    const claimed = use === 'claim' ? await this.claims.claim(groupId, terminals) : { state: (await this.claims.heldByAnother(groupId, terminals)) ? 'taken' : 'unclaimed' };
    if (claimed.state === 'unclaimed') return { ok: true };
    if (claimed.state === 'confirmed') {
      this.remember(keys);
      return { ok: true };
    }
    if ('since' in claimed) return { ok: true, pending: { groupId, terminals, keys, since: claimed.since, made: claimed.made } };
    const hostAddress = target.connUrl === null ? '' : hostKeyOf(address.format, target.connUrl);
    return { ok: false, result: 'REJECTED', message: `${describeTakenTerminal({ hostMessageFormat: address.format, hostAddress, mid, tid })}; nothing was sent` };
  }

  /**
   * After the request: a pending claim stands when the host accepted the terminal (`accepted`: it
   * answered a sign-on or approved the request), else it is released, so a PBO whose first
   * request never reached the host, or was refused, holds nothing (docs/decisions.md, "Trust
   * boundaries left over"). A request releases only a pending claim it made itself, never one of
   * another request of the PBO still on the wire (a repeat that sent nothing, a concurrent request
   * that failed: reviews r14p, r14q); that request settles it, or it is taken over once stale.
   */
  async settle(use: TerminalUse, accepted: boolean): Promise<void> {
    if (!use.ok || use.pending === undefined) return;
    const { groupId, terminals, keys, since, made } = use.pending;
    if (!accepted && !made) return;
    try {
      if (accepted) {
        // Not remembered when the gateway released the terminal meanwhile: the claim did not stand.
        if (await this.claims.confirm(groupId, terminals, since)) this.remember(keys);
      } else {
        await this.claims.release(groupId, terminals);
      }
    } catch (error) {
      // The request's own outcome stands; a claim left pending is settled by the PBO's next request, or taken over once stale.
      this.logger.error(`terminal claim of ${groupId} not ${accepted ? 'confirmed' : 'released'}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * The gateway released `event.groupId`'s terminal (`gateway.terminal.released.v1`): that PBO's
   * claims of it go, pending or confirmed, so another PBO the gateway now lets configure it may
   * sign on (docs/decisions.md, "A released terminal reaches the connector"). The host is resolved
   * as a request's claim resolves it (the acceptance's address or the format's default, for that
   * PBO under the allow-list, the name looked up as the claim looks it up); when it cannot be (no
   * host in the event, no default, not allowed any more, a name that no longer resolves), the
   * PBO's claims of the MID/TID go at every address. Only the PBO's own rows, never another's;
   * idempotent. Answers the addresses released.
   */
  async released(event: GatewayTerminalReleasedV1): Promise<string[]> {
    const [mid, tid] = [terminalIdOf(event.mid), terminalIdOf(event.tid)];
    const addresses = await this.releasedAddressesOf(event);
    const gone = await this.claims.releaseTerminal(event.groupId, { format: event.hostMessageFormat, mid, tid }, addresses);
    this.forget(event.groupId, event.hostMessageFormat, mid, tid, addresses === null ? null : new Set([...addresses, ...gone]));
    return gone;
  }

  /** The `ip:port`s of a released terminal's host as its claim keys them; null when they cannot be told (then every address). */
  private async releasedAddressesOf(event: GatewayTerminalReleasedV1): Promise<string[] | null> {
    const address = releasedHostOf(event, this.config);
    if (address === null) return null;
    try {
      return await this.socketAddressesOf(address);
    } catch {
      return null;
    }
  }

  /** Drops what this process remembers of the PBO holding the terminal, at `addresses` (null: at every address). */
  private forget(groupId: string, format: string, mid: string, tid: string, addresses: ReadonlySet<string> | null): void {
    const [prefix, suffix] = [`${groupId}|${format}|`, `|${mid}|${tid}`];
    for (const key of this.owned.keys()) {
      if (!key.startsWith(prefix) || !key.endsWith(suffix)) continue;
      if (addresses === null || addresses.has(key.slice(prefix.length, key.length - suffix.length))) this.owned.delete(key);
    }
  }

  /**
   * Every `ip:port` a request to `address` may reach, as a claim names them ({@link socketAddressOf}):
   * the host name resolved as a connection resolves it (kept {@link REMEMBER_MS}). Also what
   * `host.address.check.v1` answers as `hostAddresses`, so the write-time check sees the host the
   * claim sees (r14f). Throws when the name does not resolve.
   */
  socketAddressesOf(address: HostAddress): Promise<string[]> {
    return socketAddressesOfHost(address, (hostname) => this.addressesOf(hostname));
  }

  private remember(keys: readonly string[]): void {
    if (this.owned.size >= MAX_REMEMBERED) this.owned.clear();
    const until = Date.now() + REMEMBER_MS;
    for (const key of keys) this.owned.set(key, until);
  }

  private async addressesOf(hostname: string): Promise<string[]> {
    const now = Date.now();
    const known = this.resolved.get(hostname);
    if (known && known.until > now) return known.ips;
    const ips = await lookupAll(hostname);
    if (this.resolved.size >= MAX_REMEMBERED) this.resolved.clear();
    this.resolved.set(hostname, { ips, until: now + REMEMBER_MS });
    return ips;
  }
}
