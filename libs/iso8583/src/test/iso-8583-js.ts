/**
 * The npm package `iso_8583` (untyped JavaScript, a devDependency), typed as far as the interop
 * tests and the codec bench use it. Under `test/`, so the production build leaves it out.
 */

/** What its methods return instead of throwing. */
export interface Iso8583JsFailure {
  error: string;
}

/** Its field format: `ContentType` n, an, ans, b (hex text), z…; `LenType` fixed, llvar, lllvar…; `MaxLen` in characters. */
export interface Iso8583JsFormat {
  ContentType: string;
  Label: string;
  LenType: string;
  MaxLen: number;
}

/** A message as `iso_8583` holds it: field number → text, field 0 the MTI. */
export type Iso8583JsFields = Record<string, string>;

export interface Iso8583JsMessage {
  /** MTI + bitmaps + fields, no length header. */
  getRawMessage(): Buffer | Iso8583JsFailure;
  /** With its 2-byte binary length header. */
  getBufferMessage(): Buffer | Iso8583JsFailure;
  /** Reads a message; strips a 2-byte length header unless `lenHeader` is false. */
  getIsoJSON(buffer: Buffer, config?: { lenHeader?: boolean }): Iso8583JsFields | Iso8583JsFailure;
}

export type Iso8583JsConstructor = new (message?: Iso8583JsFields, formats?: Record<string, Iso8583JsFormat>) => Iso8583JsMessage;

// A CommonJS package without type declarations: required, then given the type above.
export const Iso8583Js = require('iso_8583') as Iso8583JsConstructor;

/** The result, or an Error carrying the package's `{ error }`. */
export function orThrow<T>(result: T | Iso8583JsFailure): T {
  if (typeof result === 'object' && result !== null && 'error' in result) throw new Error(`iso_8583: ${String(result.error)}`);
  return result;
}

/**
 * Field 55 as `iso_8583` can carry it: it has no binary variable fields (it writes every
 * variable value as text), so ICC data travels as hex characters with an LLL that counts them.
 */
export const ISO_8583_JS_ICC_FORMAT: Record<string, Iso8583JsFormat> = {
  55: { ContentType: 'b', Label: 'ICC data (hex)', LenType: 'lllvar', MaxLen: 999 },
};
