/**
 * The message of anything thrown. Not `instanceof Error`: errors from Node's socket and file
 * layers come from another realm under some runners (Jest) and would fail that test.
 */
export function errorMessage(error: unknown): string {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : String(error);
}
