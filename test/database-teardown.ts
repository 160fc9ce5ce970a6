/** Stops the embedded PostgreSQL server test/database-setup.ts started, if it started one. */
export default async function databaseTeardown(): Promise<void> {
  const server = (globalThis as { __EMBEDDED_PG__?: { stop(): Promise<void> } }).__EMBEDDED_PG__;
  await server?.stop();
}
