import { describeTakenTerminal, HostAddress, HostTargetV1, hostKeyOf, terminalIdOf } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { LEGACY_GROUP_SCOPE, groupScopeOf } from '../routing/group-scope';
import { TerminalAtAddress, TerminalClaimRepository } from './persistence/terminal-claim.repository';

/** Whether a request may use its terminal: yes, or no with the reply's result and message (nothing was sent). */
export type TerminalUse = { ok: true } | { ok: false; result: 'REJECTED' | 'HOST_UNAVAILABLE'; message: string };

/** `ip:port` as the claim names an address. */
export function socketAddressOf(ip: string, port: number): string {
  return isIP(ip) === 6 ? `[${ip.toLowerCase()}]:${port}` : `${ip}:${port}`;
}

/**
 * The last word on who may use a terminal (docs/decisions.md, "One owner per terminal, whatever
 * the spelling"). Only here is the host's real address known: the acceptance's connUrl or the
 * format's default, the host name resolved as the connection resolves it. A terminal is
 * (format, every `ip:port` the host name resolves to, MID, TID without the pad) and is the PBO's
 * whose request first used it; another PBO's request for it is REJECTED before anything is sent.
 */
@Injectable()
export class TerminalOwners {
  constructor(private readonly claims: TerminalClaimRepository) {}

  async mayUse(target: HostTargetV1, address: HostAddress): Promise<TerminalUse> {
    const groupId = groupScopeOf(target);
    const [mid, tid] = [terminalIdOf(target.mid), terminalIdOf(target.tid)];
    // Callers older than per-PBO terminals name no PBO: nothing to tell them apart by.
    if (groupId === LEGACY_GROUP_SCOPE || mid === '' || tid === '') return { ok: true };
    const hostname = address.hostname.replace(/^\[|\]$/g, '');
    let ips: string[];
    try {
      ips = isIP(hostname) ? [hostname] : (await lookup(hostname, { all: true })).map((found) => found.address);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { ok: false, result: 'HOST_UNAVAILABLE', message: `host ${address.hostname} could not be resolved (${detail}); nothing was sent` };
    }
    const terminals: TerminalAtAddress[] = [...new Set(ips.map((ip) => socketAddressOf(ip, address.port)))].map((at) => ({ format: address.format, address: at, mid, tid }));
    if (await this.claims.claim(groupId, terminals)) return { ok: true };
    const host = target.connUrl === null ? '' : hostKeyOf(address.format, target.connUrl);
    return {
      ok: false,
      result: 'REJECTED',
      message: `${describeTakenTerminal({ hostMessageFormat: address.format, hostAddress: host, mid, tid })}; nothing was sent`,
    };
  }
}
