import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { natsServerBinary } from './nats';

describe('natsServerBinary', () => {
  it('should find an executable nats-server in a folder on PATH', () => {
    const empty = mkdtempSync(join(tmpdir(), 'softpos-path-'));
    const bin = mkdtempSync(join(tmpdir(), 'softpos-path-'));
    writeFileSync(join(bin, 'nats-server'), '#!/bin/sh\n');
    chmodSync(join(bin, 'nats-server'), 0o755);

    expect(natsServerBinary([empty, bin].join(delimiter))).toBe(join(bin, 'nats-server'));
  });

  it('should name what is missing and how to install it when no folder on PATH holds it', () => {
    const empty = mkdtempSync(join(tmpdir(), 'softpos-path-'));

    expect(() => natsServerBinary(empty)).toThrow(`nats-server is not on PATH (${empty}): this test runs a NATS server of its own. Install it`);
    expect(() => natsServerBinary(empty)).toThrow(/apt-get install nats-server/);
  });
});
