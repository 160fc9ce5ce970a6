// class-transformer's @Type reads design-time metadata: the contract must load without Nest having loaded this first.
import 'reflect-metadata';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { HOST_MESSAGE_FORMATS, HostMessageFormat } from './host-formats';

/**
 * `host.address.check.v1`: would the host connector send a request of this PBO to this address?
 * Asked by merchant-management when an acquirer's connUrl is created or changed; the connector
 * answers with the same rules it applies to every request (its parser, its allow-list with the
 * loopback rule and the entries scoped to one PBO). It resolves the address as a request would;
 * it never connects (docs/decisions.md, "Trust boundaries left over"). Its `hostKey` is the host as
 * a terminal's owner is told at write time: every spelling of the connector's default address is
 * the default's `''`; its `hostAddresses` are the `ip:port`s the connector's own terminal claim
 * keys on, the name looked up only when the PBO may send there (docs/decisions.md, "A terminal is
 * claimed at write time on the connector's endpoint", "A host name is the addresses it resolves to").
 */
export class HostAddressCheckRequestV1 {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  groupId: string;

  @IsIn(HOST_MESSAGE_FORMATS)
  hostMessageFormat: HostMessageFormat;

  /** Absent: the connector's default address of the format (then `allowed` tells nothing more than its `hostKey`). */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  connUrl?: string;
}

export class HostAddressCheckReplyV1 {
  /** True when a request of the PBO to this address would be sent. */
  @IsBoolean()
  allowed: boolean;

  /** Why not, in the connector's words (the address as given, the rule it breaks); absent when allowed. */
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  reason?: string;

  /**
   * The host the connector would send to, as terminal ownership names it (`hostKeyOf` of the
   * address, libs/contracts host-address.ts): `''` when it is the format's default address, however
   * spelt (or no connUrl). Absent from connectors older than it: callers fall back to `hostKeyOf`.
   */
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  hostKey?: string;

  /**
   * Every `ip:port` a request to this address may reach, as the connector's terminal claim names
   * them (an IPv6 address in brackets, an IPv4-mapped one as IPv4): the host name looked up as a
   * connection looks it up. Absent when the address is not allowed for the PBO, does not resolve,
   * is MOCK's, or from connectors older than it: callers then compare `hostKey` only.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(64)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  hostAddresses?: string[];
}
