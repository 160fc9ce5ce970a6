import { DomainError } from '@app/common';
import { ContractViolationError, hostKeyOf, isHostMessageFormat, TerminalIdentity, terminalIdentityOf } from '@app/contracts';
import { HostAddressPolicy, RequestReplyError } from '@app/messaging';
import { Logger } from '@nestjs/common';

/**
 * The terminal identities of acceptances keyed on the host the connector would send to
 * (`host.address.check.v1`'s `hostKey`): an explicit spelling of the connector's default address
 * is the default's `''`, as the connector's own claim (on the resolved `ip:port`) sees it. One ask
 * per distinct (format, connUrl); no connUrl is the default without asking; a connector that
 * answers no `hostKey` (older) leaves `hostKeyOf`. No answer: 503, nothing is written
 * (docs/decisions.md, "A terminal is claimed at write time on the connector's endpoint").
 */
export async function terminalIdentitiesAtConnector(
  policy: HostAddressPolicy,
  groupId: string,
  acceptances: ReadonlyArray<{ hostMessageFormat: string; hostUrl: string | null; mid: string | null; tid: string | null }>,
  logger: Logger,
): Promise<Array<TerminalIdentity | null>> {
  const identities = acceptances.map((a) => terminalIdentityOf(a.hostMessageFormat, a.hostUrl, a.mid, a.tid));
  const asked = new Map<string, Promise<string>>();
  const keyOf = (format: string, connUrl: string): Promise<string> => {
    const id = JSON.stringify([format, connUrl]);
    let key = asked.get(id);
    if (key === undefined) {
      key = askHostKey(policy, groupId, format, connUrl, logger);
      asked.set(id, key);
    }
    return key;
  };
  return Promise.all(
    identities.map(async (identity, index) => {
      const hostUrl = acceptances[index].hostUrl;
      if (identity === null || identity.hostAddress === '' || hostUrl === null) return identity;
      return { ...identity, hostAddress: await keyOf(identity.hostMessageFormat, hostUrl.trim()) };
    }),
  );
}

async function askHostKey(policy: HostAddressPolicy, groupId: string, format: string, connUrl: string, logger: Logger): Promise<string> {
  if (!isHostMessageFormat(format)) return hostKeyOf(format, connUrl);
  try {
    const reply = await policy.check({ groupId, hostMessageFormat: format, connUrl });
    return reply.hostKey ?? hostKeyOf(format, connUrl);
  } catch (error) {
    if (!(error instanceof RequestReplyError) && !(error instanceof ContractViolationError)) throw error;
    logger.error(`host.address.check.v1 for ${format} ${connUrl}: ${error.message}`);
    throw DomainError.unavailable('the host connector did not say which host this acquirer address reaches; nothing was saved, try again');
  }
}
