export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as { __EMBEDDED_PG__?: { stop(): Promise<void> } }).__EMBEDDED_PG__;
  await server?.stop();
}
