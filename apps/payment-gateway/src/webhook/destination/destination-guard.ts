import { AllowList, errorMessage } from '@app/common';
import { isIP } from 'node:net';
import { classifyAddress } from './address-class';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (`dns.lookup` with `all`, in production). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Where one attempt goes: the URL as given and the one address that was checked, which is the one connected to. */
export interface CheckedDestination {
  url: URL;
  /** As written in the URL, without IPv6 brackets: the Host header and the TLS server name. */
  hostname: string;
  port: number;
  address: string;
  family: 4 | 6;
}

/**
 * The guard's answer: a destination to connect to, or why not. `permanent` refusals (a URL the
 * gateway will never deliver to: another scheme, credentials, a literal address that is not
 * public) end the delivery at once; others (what a name resolves to now) are retried.
 */
/**
 * What the PBO is told whenever the answer depends on the gateway's own network: a name that does
 * not resolve, resolves to nothing or to an address that is not public, a connection that fails
 * or gets no answer in time. One text for all, so that callbackUrls cannot map internal names or
 * ports (docs/decisions.md, "Webhook destinations are no oracle"); which one it was goes to the log.
 */
export const UNREACHABLE = 'destination not reachable or not allowed';

/** `reason` is shown to the PBO (never a resolver's text or the address a name resolved to); `detail` is for the log. */
export type DestinationCheck = { ok: true; destination: CheckedDestination } | { ok: false; permanent: boolean; reason: string; detail?: string };

/**
 * Checks a callbackUrl before an attempt: http or https without credentials, and every address
 * its host resolves to public (not loopback, private, link-local, shared, multicast, reserved or
 * unspecified, IPv4-mapped and NAT64 forms included) unless `allowList` (WEBHOOK_ALLOWED_HOSTS)
 * names the host or the address. Every address must pass, not just the first, so a name cannot
 * mix a public address with an internal one; the sender then connects to the address checked
 * here, never resolving the name again (no DNS rebinding between check and connection).
 */
function unreachable(detail: string): DestinationCheck {
  return { ok: false, permanent: false, reason: UNREACHABLE, detail };
}

export async function checkDestination(callbackUrl: string, allowList: AllowList, resolve: Resolver): Promise<DestinationCheck> {
  const refuse = (reason: string, detail?: string): DestinationCheck => ({ ok: false, permanent: true, reason, ...(detail ? { detail } : {}) });
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    return refuse('callbackUrl is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse(`callbackUrl must be http or https, not ${url.protocol.slice(0, -1)}`);
  if (url.username || url.password) return refuse('callbackUrl must not carry credentials');
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const literal = isIP(hostname);
  let addresses: ResolvedAddress[];
  if (literal === 0) {
    try {
      addresses = await resolve(hostname);
    } catch (error) {
      return unreachable(`${hostname} could not be resolved: ${errorMessage(error)}`);
    }
    if (addresses.length === 0) return unreachable(`${hostname} has no address`);
  } else {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  }
  // A name the operator listed is trusted whatever it resolves to; otherwise each address must be public or listed.
  if (literal === 0 && allowList.allows(hostname, port)) return { ok: true, destination: { url, hostname, port, ...addresses[0] } };
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind !== 'public' && !allowList.allows(address, port)) {
      // A name's address is the gateway's resolver's answer (maybe an internal one): the PBO is told
      // no more than for a name that does not resolve, and it is retried the same way. A literal
      // address is the PBO's own text: its kind is no secret, and no attempt will do better.
      if (literal === 0) return unreachable(`${hostname} resolves to ${address} (${kind}): not a public address, and not in WEBHOOK_ALLOWED_HOSTS`);
      return refuse(`${address} (${kind}): not a public address, and not in WEBHOOK_ALLOWED_HOSTS`);
    }
  }
  return { ok: true, destination: { url, hostname, port, ...addresses[0] } };
}
