/** The message of anything thrown, for log lines and replies. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
