import { randomInt, randomUUID } from 'node:crypto';
import { secureRandomBytes } from './secure-random';

/**
 * The randomness ids and codes are drawn from (uuids, activation codes, merchant and device
 * ids), injected so that a unit test can replay it. The production source is `node:crypto`:
 * ids and codes must not be guessable from one another.
 */
export abstract class IdGenerator {
  abstract uuid(): string;
  /** An integer in [min, max). */
  abstract int(min: number, max: number): number;
  abstract bytes(length: number): Buffer;
}

/** {@link IdGenerator} on `node:crypto`'s cryptographically strong generator. */
export class CryptoIdGenerator extends IdGenerator {
  uuid(): string {
    return randomUUID();
  }

  int(min: number, max: number): number {
    return randomInt(min, max);
  }

  bytes(length: number): Buffer {
    return secureRandomBytes(length);
  }
}

/** A replayable {@link IdGenerator} for unit tests: the same seed draws the same ids. */
export class SeededIdGenerator extends IdGenerator {
  private state: number;
  private count = 0;

  constructor(seed = 1) {
    super();
    this.state = seed >>> 0 || 1;
  }

  /** xorshift32: enough spread for test ids, no security. */
  private next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state;
  }

  uuid(): string {
    const hex = (++this.count).toString(16).padStart(12, '0');
    return `00000000-0000-4000-8000-${hex}`;
  }

  int(min: number, max: number): number {
    return min + (this.next() % (max - min));
  }

  bytes(length: number): Buffer {
    return Buffer.from(Array.from({ length }, () => this.next() & 0xff));
  }
}
