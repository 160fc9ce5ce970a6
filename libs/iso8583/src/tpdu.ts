import { Iso8583Error, Iso8583ErrorCode } from './errors';

/** Size of a TPDU: ID byte, destination NII (2 bytes), source NII (2 bytes). */
export const TPDU_LENGTH = 5;
/** The TPDU ID byte of a transaction message. */
export const TPDU_ID = 0x60;

function tpduError(offset: number, detail: string): Iso8583Error {
  return new Iso8583Error(Iso8583ErrorCode.BadFrame, 'tpdu', offset, detail);
}

/** Throws `Iso8583Error` (BAD_FRAME, `tpdu`) unless `tpdu` is 5 bytes starting 0x60; `offset` is where it sits, for the error. */
export function checkTpdu(tpdu: Buffer, offset = -1): void {
  if (!Buffer.isBuffer(tpdu) || tpdu.length !== TPDU_LENGTH) throw tpduError(offset, `a TPDU is ${TPDU_LENGTH} bytes`);
  if (tpdu[0] !== TPDU_ID) throw tpduError(offset, `TPDU starts 0x${tpdu[0].toString(16).padStart(2, '0')}, not 0x60`);
}

function niiBytes(nii: number, which: string): [number, number] {
  if (!Number.isInteger(nii) || nii < 0 || nii > 9999) throw tpduError(-1, `${which} NII must be an integer from 0 to 9999`);
  const digits = String(nii).padStart(4, '0');
  return [parseInt(digits.slice(0, 2), 16), parseInt(digits.slice(2), 16)];
}

/**
 * A TPDU for a terminal-originated message. NIIs are written as BCD, the way field 24 carries
 * an NII (n3): NII 3 becomes `00 03`, NII 120 becomes `01 20`.
 */
export function buildTpdu(destinationNii: number, sourceNii: number): Buffer {
  return Buffer.from([TPDU_ID, ...niiBytes(destinationNii, 'destination'), ...niiBytes(sourceNii, 'source')]);
}

/** The TPDU of the answer to a message that came with `tpdu`: destination and source NII swapped. */
export function responseTpdu(tpdu: Buffer): Buffer {
  checkTpdu(tpdu);
  return Buffer.from([TPDU_ID, tpdu[3], tpdu[4], tpdu[1], tpdu[2]]);
}
