import { HostMessageFormat } from '@app/contracts';
import { decryptKeyUnderZmk, dialectLookup, HostDialect, IsoSpecs, JsonSpecs, keyCheckValue } from '@app/host-protocol';
import { buildTpdu, framerFor, MessageSpec } from '@app/iso8583';

/** Splits a TCP stream into messages and wraps outgoing ones (length header, TPDU) for one ISO format. */
export interface Framer {
  frame(payload: Buffer): Buffer;
  deframer(): { push(chunk: Buffer): Array<{ payload: Buffer }> };
}

/**
 * What the connector needs from the protocol libraries: the dialect of a format, the framing of
 * an ISO spec, and the key arithmetic of sign-on. One injectable seam (HOST_PROTOCOLS), so tests
 * can put a scripted dialect in front of a scripted host.
 */
export interface HostProtocols {
  dialectFor(format: HostMessageFormat): HostDialect;
  framerFor(spec: MessageSpec): Framer;
  /** 6 hex digits: 3DES-encrypt 8 zero bytes under the key, first 3 bytes. */
  keyCheckValue(key: Buffer): string;
  /** The clear working key from its form under the zone master key (3DES ECB). */
  decryptUnderZmk(zmk: Buffer, keyUnderZmk: Buffer): Buffer;
}

/** Nest injection token of the {@link HostProtocols} in use. */
export const HOST_PROTOCOLS = Symbol('HOST_PROTOCOLS');

/** NIIs of the TPDU the connector puts in front of messages of a TPDU framing (S2M_8583): to host 001, from 000. */
export const TPDU_DESTINATION_NII = 1;
export const TPDU_SOURCE_NII = 0;

/** The spec's own network framing (length header, and a TPDU where the spec has one). */
export function specFramer(spec: MessageSpec): Framer {
  const framer = framerFor(spec);
  const tpdu = framer.header.tpdu ? buildTpdu(TPDU_DESTINATION_NII, TPDU_SOURCE_NII) : undefined;
  return { frame: (payload) => framer.frame(payload, tpdu), deframer: () => framer.deframer() };
}

/** The platform's protocol libraries, the formats speaking the operator's spec files where `specs` / `jsonSpecs` have one (HOST_SPEC_<FORMAT>_FILE). */
export function hostProtocolsFor(specs: IsoSpecs = {}, jsonSpecs: JsonSpecs = {}): HostProtocols {
  return {
    dialectFor: dialectLookup(specs, jsonSpecs),
    framerFor: specFramer,
    keyCheckValue,
    decryptUnderZmk: (zmk, keyUnderZmk) => decryptKeyUnderZmk(keyUnderZmk, zmk),
  };
}
