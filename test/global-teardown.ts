export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as { __EMBEDDED_PG__?: { stop(): Promise<void> } }).__EMBEDDED_PG__;
  await server?.stop();
  // Again at the end, where a failure's summary is read.
  process.stdout.write(`test seed ${process.env.TEST_SEED} (replay with TEST_SEED=${process.env.TEST_SEED})\n`);
}
