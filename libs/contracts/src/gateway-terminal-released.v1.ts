// class-transformer's @Type reads design-time metadata: the contract must load without Nest having loaded this first.
import 'reflect-metadata';
import { IsIn, IsISO8601, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { GATEWAY_PROFILE_LIMITS } from './gateway-profile-upsert.v1';
import { HOST_MESSAGE_FORMATS, HostMessageFormat } from './host-formats';
import { hostKeyOf, parseHostUrl, TerminalIdentity } from './host-address';

/** Longest host text a released terminal names (the gateway's `terminal_identity.host_address`). */
export const GATEWAY_TERMINAL_HOST_MAX = 512;

/**
 * Payload of `gateway.terminal.released.v1`: the gateway released a PBO's terminal identity (no
 * live profile of the PBO binds it any more: its device was decommissioned, its code deleted, or
 * its acceptance changed), so another PBO may now configure it. Published through the gateway's
 * outbox in the transaction that deleted the `terminal_identity` row; the host connector deletes
 * that PBO's claims of the terminal (docs/decisions.md, "A released terminal reaches the
 * connector"). Carries no secret: the host as the gateway keys it (`hostKeyOf`: scheme, host,
 * port and path, never credentials or a query).
 */
export class GatewayTerminalReleasedV1 {
  /** The PBO that held the terminal (only its claims are released). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.groupId)
  groupId: string;

  @IsIn(HOST_MESSAGE_FORMATS)
  hostMessageFormat: HostMessageFormat;

  /**
   * The host as the gateway keys it (`hostKeyOf`): `''` for the format's default address. Absent
   * when the gateway's text is not an address the parser reads (then the connector releases the
   * PBO's claims of the MID/TID at every address).
   */
  @IsOptional()
  @IsString()
  @MaxLength(GATEWAY_TERMINAL_HOST_MAX)
  hostAddress?: string;

  /** MID and TID without the ISO 8583 space pad (`terminalIdOf`). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.primaryMid)
  mid: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.primaryTid)
  tid: string;

  /** When the gateway released it (ISO 8601, UTC). */
  @IsISO8601({ strict: true })
  releasedAt: string;
}

/**
 * The event of a released terminal identity of `groupId`: its host only when it is a host key as
 * the parser writes it (`''`, or an address the parser reads, credential-free, that `hostKeyOf`
 * gives back unchanged), so a text that is not an address never travels.
 */
export function terminalReleasedOf(identity: TerminalIdentity & { groupId: string; hostMessageFormat: HostMessageFormat }, releasedAt: Date): GatewayTerminalReleasedV1 {
  const { groupId, hostMessageFormat, hostAddress, mid, tid } = identity;
  return { groupId, hostMessageFormat, ...(isHostKey(hostMessageFormat, hostAddress) ? { hostAddress } : {}), mid, tid, releasedAt: releasedAt.toISOString() };
}

function isHostKey(format: HostMessageFormat, text: string): boolean {
  if (text === '') return true;
  try {
    parseHostUrl(format, text);
  } catch {
    return false;
  }
  return hostKeyOf(format, text) === text;
}
