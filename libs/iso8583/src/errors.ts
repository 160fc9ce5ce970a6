/** Why the codec refused a message or a spec; one code per kind of defect. */
export enum Iso8583ErrorCode {
  /** A value or length prefix is longer than the field allows. */
  LengthExceedsMax = 'LENGTH_EXCEEDS_MAX',
  /** The message ends before a field, prefix, bitmap or MTI is complete. */
  Truncated = 'TRUNCATED',
  /** A bitmap is malformed or announces a field the spec does not define. */
  BadBitmap = 'BAD_BITMAP',
  /** A length prefix is not a number in its encoding. */
  BadLengthPrefix = 'BAD_LENGTH_PREFIX',
  /** A value does not fit the field's type (e.g. a letter in an `n` field). */
  InvalidValue = 'INVALID_VALUE',
  /** A field to pack is not in the spec. */
  UnknownField = 'UNKNOWN_FIELD',
  /** Bytes remain after the last field the bitmap announces. */
  TrailingBytes = 'TRAILING_BYTES',
  /** A network frame is malformed or too large. */
  BadFrame = 'BAD_FRAME',
  /** The message spec itself is inconsistent. */
  BadSpec = 'BAD_SPEC',
}

/**
 * The only error the codec throws. `fieldPath` names where it happened (`field 35`, `mti`,
 * `bitmap`, `secondary bitmap`, `message`), `offset` the byte offset in the message (or -1 when
 * packing, where no wire offset exists yet).
 */
export class Iso8583Error extends Error {
  constructor(
    readonly code: Iso8583ErrorCode,
    readonly fieldPath: string,
    readonly offset: number,
    detail: string,
  ) {
    super(`${fieldPath}${offset >= 0 ? ` at offset ${offset}` : ''}: ${detail}`);
    this.name = 'Iso8583Error';
  }
}
