/**
 * How a text the client chose (a field name, a query parameter name, a token claim) appears in an
 * answer or a log line: never as sent. One place, so every message that names such a text bounds
 * it the same way (docs/decisions.md, "No echoes in error texts").
 */

/** A control character (C0, DEL, C1) or a lone UTF-16 surrogate: what must not reach a log line or an answer as is. */
export const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, 'g');
/**
 * Also escaped in answers: markup characters, so a name is never markup a careless viewer
 * renders, and invisible format characters (line and paragraph separators, zero-width and
 * bidirectional controls, the byte order mark) that would make a name read as another.
 */
const UNPRINTABLE_OR_MARKUP = new RegExp(`${UNPRINTABLE.source}|[<>&\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]`, 'g');

const escape = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** At most `max` characters of `text` (a cut one ends with `…`), with surrogate pairs kept whole. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  // Do not cut a surrogate pair in two (the cut half would be a lone surrogate).
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/**
 * `text` as a log line may carry it: control characters, DEL, C1 and lone surrogates escaped
 * (`\u0000`), so a value from a token or a request cannot forge or break log lines; at most `max`
 * characters before escaping.
 */
export function printable(text: string, max = 128): string {
  return clip(text, max).replace(UNPRINTABLE_ALL, escape);
}

/** Longest part of a client-chosen name an error text repeats. */
export const MAX_ECHOED_NAME = 64;

/**
 * A field or parameter name the client sent, as an error text names it: its first
 * {@link MAX_ECHOED_NAME} characters (`…` when cut), control characters, lone surrogates, invisible
 * format characters and `<`, `>`, `&` escaped as `\u003c`. At most 6 × 64 + 1 characters whatever was sent.
 */
export function fieldName(name: string): string {
  return clip(name, MAX_ECHOED_NAME).replace(UNPRINTABLE_OR_MARKUP, escape);
}
