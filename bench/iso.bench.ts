/**
 * bench:iso — the ISO 8583 codec: pack + unpack per second of a full 0200 with field 55, our
 * ISO8583 preset against the npm package `iso_8583` in the same run (target: ours at least 5x).
 *   npm run bench:iso [-- --seconds 6]
 */
import { cpus } from 'node:os';
import { runCodecBench } from './iso-codec';

const TARGET_RATIO = 5;

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

async function main(): Promise<void> {
  const seconds = option('seconds', 6);
  console.log(`bench:iso on ${cpus().length} cores, node ${process.version}, ${seconds} s per codec pair`);

  const codec = await runCodecBench({ seconds });
  console.log('codec: pack + unpack of a full 0200 with field 55 (20 EMV tags)');
  console.log(`  ours (ISO8583 preset)  ${codec.oursOpsPerSec.toLocaleString('en-US')} ops/s`);
  console.log(`  iso_8583               ${codec.theirsOpsPerSec.toLocaleString('en-US')} ops/s`);
  console.log(`  ratio                  ${codec.ratio}x (target ${TARGET_RATIO}x)`);

  // ---------------------------------------------------------------------------------------
  // END-TO-END PART: to be added (authorization through host-connector against the host
  // simulator). Run it here, after the codec part, and print its figures the same way.
  // ---------------------------------------------------------------------------------------

  if (codec.ratio < TARGET_RATIO) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
