/** A field `unpack` read tolerantly but left out of `fields`, and why (never its value). */
export interface SkippedField {
  number: number;
  reason: string;
}

/** An ISO 8583 message: its MTI and its data elements by number (text for n/an/ans/z, bytes for b). */
export interface Iso8583Message {
  mti: string;
  fields: Record<number, string | Buffer>;
  /**
   * Set by `unpack` only, and only when the message carried fields its spec lacks: their
   * numbers, ascending. Their values (in `fields`) were read by the ISO 8583:1987 definition
   * (`MessageSpec.standardFallback`); `describe` does not show them, and `pack` refuses them.
   */
  fallbackFields?: number[];
  /**
   * Set by `unpack` only, when read tolerantly (`UnpackOptions.tolerantExcept`) and a field broke
   * its rule: its number and why, ascending; the field is not in `fields`.
   */
  skippedFields?: SkippedField[];
}
