import { HostTargetV1 } from '@app/contracts';
import { IsoDialect } from '@app/host-protocol';
import { Iso8583Message } from '@app/iso8583';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { HostConnectorConfig } from '../config/host-connector.config';
import { HOST_CONNECTOR_CONFIG } from '../config/config.token';
import { HOST_PROTOCOLS, HostProtocols } from '../protocol/host-protocols';
import { groupScopeOf, LEGACY_GROUP_SCOPE } from '../routing/group-scope';
import { HostAddress } from '../routing/host-address';
import { IsoSession } from './iso-session';

/** A session with what the connector knows about its host. */
export interface ManagedSession {
  /** The PBO whose terminals use the session ({@link LEGACY_GROUP_SCOPE}: callers that name none). */
  groupId: string;
  address: HostAddress;
  dialect: IsoDialect;
  session: IsoSession;
  /** The last terminal that used the session (always one of its PBO's): keep-alive echoes go out in its name. */
  target: HostTargetV1 | undefined;
  missedEchoes: number;
  down: boolean;
  lastEchoAt: Date | undefined;
  lastEchoAnsweredAt: Date | undefined;
}

/** How a session looks from outside (health). */
export interface SessionView {
  host: string;
  /** The PBO the session is for; null for callers that name none. */
  group: string | null;
  format: string;
  connection: string;
  available: 'up' | 'down';
  missedEchoes: number;
  inFlight: number;
  lastEchoAnsweredAt: string | null;
  lastConnectError: string | null;
}

/** Told of a response that came on a session when no request waited for it. */
export type UnmatchedListener = (managed: ManagedSession, message: Iso8583Message) => void;

/**
 * One persistent session per (PBO, ISO format, host address), made on first use: a PBO's terminals
 * never share a connection, its sign-on state or its echo bookkeeping with another PBO's, even on a
 * host both use with the same MID/TID. Keeps the echo
 * bookkeeping: a host whose echoes go unanswered `echoMaxMisses` times in a row is marked down
 * (requests to it are refused without being sent, and its connection is reset), and up again as
 * soon as one echo is answered.
 */
@Injectable()
export class IsoSessionPool {
  private readonly sessions = new Map<string, ManagedSession>();
  private readonly logger = new Logger('IsoSessionPool');
  private readonly unmatchedListeners = new Set<UnmatchedListener>();

  constructor(
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
    @Inject(HOST_PROTOCOLS) private readonly protocols: HostProtocols,
  ) {}

  sessionFor(address: HostAddress, dialect: IsoDialect, target?: HostTargetV1): ManagedSession {
    const groupId = target ? groupScopeOf(target) : LEGACY_GROUP_SCOPE;
    const key = `${groupId} ${address.format} ${address.endpoint}`;
    let managed = this.sessions.get(key);
    if (!managed) {
      const session = new IsoSession({
        label: `${address.format} ${address.url}`,
        hostname: address.hostname,
        port: address.port,
        spec: dialect.spec,
        framer: this.protocols.framerFor(dialect.spec),
        matchKeyOfResponse: (message) => dialect.matchKeyOfResponse(message),
        answerMatchFields: dialect.answerMatchFields,
        connectTimeoutMs: this.config.connectTimeoutMs,
        reconnect: this.config.reconnect,
        logger: new Logger(`IsoSession`),
        onUnmatched: (message) => {
          for (const listener of this.unmatchedListeners) if (managed) listener(managed, message);
        },
      });
      managed = { groupId, address, dialect, session, target: undefined, missedEchoes: 0, down: false, lastEchoAt: undefined, lastEchoAnsweredAt: undefined };
      this.sessions.set(key, managed);
    }
    if (target) managed.target = target;
    return managed;
  }

  /** Calls `listener` with every response that arrives when no request waits for it (late answers). */
  onUnmatchedResponse(listener: UnmatchedListener): void {
    this.unmatchedListeners.add(listener);
  }

  all(): ManagedSession[] {
    return [...this.sessions.values()];
  }

  /** Records the outcome of an echo (keep-alive or asked for). */
  noteEcho(managed: ManagedSession, answered: boolean, reason?: string): void {
    managed.lastEchoAt = new Date();
    if (answered) {
      managed.lastEchoAnsweredAt = managed.lastEchoAt;
      managed.missedEchoes = 0;
      if (managed.down) {
        managed.down = false;
        this.logger.log(`${managed.session.label} answers echoes again: marked up`);
      }
      return;
    }
    managed.missedEchoes += 1;
    if (!managed.down && managed.missedEchoes >= this.config.echoMaxMisses) {
      managed.down = true;
      this.logger.warn(`${managed.session.label} missed ${managed.missedEchoes} echoes in a row (${reason ?? 'no answer'}): marked down`);
      managed.session.resetConnection('marked down');
    }
  }

  views(): SessionView[] {
    return this.all().map((managed) => ({
      host: managed.address.url,
      group: managed.groupId === LEGACY_GROUP_SCOPE ? null : managed.groupId,
      format: managed.address.format,
      connection: managed.session.state,
      available: managed.down ? 'down' : 'up',
      missedEchoes: managed.missedEchoes,
      inFlight: managed.session.inFlight,
      lastEchoAnsweredAt: managed.lastEchoAnsweredAt?.toISOString() ?? null,
      lastConnectError: managed.session.lastConnectError ?? null,
    }));
  }

  async close(): Promise<void> {
    await Promise.all(this.all().map((managed) => managed.session.close()));
    this.sessions.clear();
  }
}
