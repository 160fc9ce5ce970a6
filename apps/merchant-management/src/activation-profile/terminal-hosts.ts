import { DomainError } from '@app/common';
import { HostAddressCheckReplyV1, hostKeyOf, isHostMessageFormat, TerminalIdentity, terminalIdentityOf } from '@app/contracts';
import { HostAddressPolicy, isUnansweredCheck } from '@app/messaging';
import { Logger } from '@nestjs/common';

/** A terminal identity with the `ip:port`s its host reaches as the connector's claim keys them (none known: its `hostAddress` only). */
export interface TerminalAtConnector extends TerminalIdentity {
  hostAddresses: string[];
}

/** An acceptance's terminal as stored; `groupId`: the PBO whose address it is, when not the asker's (its allow-list scope). */
export interface AcceptedTerminal {
  hostMessageFormat: string;
  hostUrl: string | null;
  mid: string | null;
  tid: string | null;
  groupId?: string;
}

/**
 * The terminal identities of acceptances keyed on the host the connector would send to
 * (`host.address.check.v1`): `hostKey`, where an explicit spelling of the connector's default
 * address is the default's `''`, and `hostAddresses`, the `ip:port`s a host name resolves to as the
 * connector's own claim resolves it, so a name of another PBO's host (`localhost` for the default
 * `127.0.0.1`) is that host here too (r14f). One ask per distinct (PBO, format, connUrl), the
 * default included; each address asked under the PBO it belongs to (its allow-list scope). A
 * connector that answers no `hostKey` (older) leaves `hostKeyOf`. No answer: 503, nothing is
 * written (docs/decisions.md, "A terminal is claimed at write time on the connector's endpoint",
 * "A host name is the addresses it resolves to").
 */
export async function terminalIdentitiesAtConnector(
  policy: HostAddressPolicy,
  groupId: string,
  acceptances: ReadonlyArray<AcceptedTerminal>,
  logger: Logger,
): Promise<Array<TerminalAtConnector | null>> {
  const asked = new Map<string, Promise<HostAddressCheckReplyV1>>();
  const ask = (group: string, format: string, connUrl: string | undefined): Promise<HostAddressCheckReplyV1> => {
    const id = JSON.stringify([group, format, connUrl ?? null]);
    let reply = asked.get(id);
    if (reply === undefined) {
      reply = askConnector(policy, group, format, connUrl, logger);
      asked.set(id, reply);
    }
    return reply;
  };
  return Promise.all(
    acceptances.map(async (acceptance): Promise<TerminalAtConnector | null> => {
      const identity = terminalIdentityOf(acceptance.hostMessageFormat, acceptance.hostUrl, acceptance.mid, acceptance.tid);
      if (identity === null) return null;
      const connUrl = acceptance.hostUrl === null || identity.hostAddress === '' ? undefined : acceptance.hostUrl.trim();
      const reply = await ask(acceptance.groupId ?? groupId, identity.hostMessageFormat, connUrl);
      return { ...identity, hostAddress: reply.hostKey ?? identity.hostAddress, hostAddresses: reply.hostAddresses ?? [] };
    }),
  );
}

/**
 * The keys under which two terminals are one: the host as `hostKey` names it, and each `ip:port` it
 * reaches (the connector claims every one of them: two terminals that share one are the same
 * terminal there). Format, MID and TID as the identity names them.
 */
export function terminalKeysOf(terminal: TerminalAtConnector): string[] {
  const { hostMessageFormat, mid, tid } = terminal;
  return [JSON.stringify([hostMessageFormat, terminal.hostAddress, mid, tid]), ...terminal.hostAddresses.map((at) => JSON.stringify([hostMessageFormat, { at }, mid, tid]))];
}

async function askConnector(policy: HostAddressPolicy, groupId: string, format: string, connUrl: string | undefined, logger: Logger): Promise<HostAddressCheckReplyV1> {
  if (!isHostMessageFormat(format)) return { allowed: true, hostKey: hostKeyOf(format, connUrl ?? null) };
  try {
    return await policy.check({ groupId, hostMessageFormat: format, connUrl });
  } catch (error) {
    if (!isUnansweredCheck(error)) throw error;
    logger.error(`host.address.check.v1 for ${format} ${connUrl ?? '(default)'}: ${error.message}`);
    throw DomainError.unavailable('the host connector did not say which host this acquirer address reaches; nothing was saved, try again');
  }
}
