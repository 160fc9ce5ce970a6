import { isIPv4, isIPv6 } from 'node:net';
import { windowStartOf } from './fixed-window';

/**
 * A sliding window over two fixed ones (the current and the one before): the failures of the
 * current window plus those of the previous one weighted by how much of it the sliding window
 * still covers. A guesser gets no fresh allowance at a window boundary, as with a fixed aligned
 * window, and replicas still agree on the windows without talking.
 */
export function slidingCount(current: number, previous: number, now: Date, windowMs: number): number {
  const elapsed = (now.getTime() - windowStartOf(now, windowMs).getTime()) / windowMs;
  return current + Math.floor(previous * (1 - elapsed));
}

/** The start of the window before the one `now` falls in. */
export function previousWindowStartOf(now: Date, windowMs: number): Date {
  return new Date(windowStartOf(now, windowMs).getTime() - windowMs);
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number);
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16));
}

/**
 * Whom a throttle counts for a client address: an IPv4 address itself (an IPv4-mapped IPv6 one
 * too), an IPv6 address by its /64 (one subscriber's network: a host picks any of its 2^64
 * addresses at will). Anything else is counted as given.
 */
export function throttleKeyOfAddress(address: string): string {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
