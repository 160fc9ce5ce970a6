export default function globalTeardown(): void {
  // Again at the end, where a failure's summary is read.
  process.stdout.write(`test seed ${process.env.TEST_SEED} (replay with TEST_SEED=${process.env.TEST_SEED})\n`);
}
