import { FIELD_CIPHER, FieldCipher } from '@app/common';
import { HostAnswer } from '@app/host-protocol';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { HostConnectorConfig } from '../config/host-connector.config';
import { HOST_CONNECTOR_CONFIG } from '../config/config.token';
import { HOST_PROTOCOLS, HostProtocols } from '../protocol/host-protocols';
import { WorkingKeySource } from './persistence/working-key.entity';
import { WorkingKeyRepository } from './persistence/working-key.repository';

/** Where a key came from: the terminal on its host, and what a key exchange sends again (null for the MOCK host, which has no exchanges). */
export interface KeyTerminal {
  /** The PBO scope the terminal signed on in. */
  groupId: string;
  format: string;
  endpoint: string;
  tid: string;
  origin: { hostUrl: string; mid: string; acptId: string; acquirerId?: string | null } | null;
}

export type KeyAcceptance = { kind: 'none' } | { kind: 'stored'; keyCheckValue: string } | { kind: 'refused'; reason: string };

/**
 * Working keys from sign-on (0800/001) and key exchange (0800/101): decrypted under the zone
 * master key, checked against the check value the host sent, sealed with the platform's
 * FieldCipher and stored per terminal. The clear key lives only in memory, the check value is
 * what callers see.
 */
@Injectable()
export class WorkingKeyService {
  private readonly logger = new Logger('WorkingKeyService');

  constructor(
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
    @Inject(HOST_PROTOCOLS) private readonly protocols: HostProtocols,
    @Inject(FIELD_CIPHER) private readonly cipher: FieldCipher,
    private readonly keys: WorkingKeyRepository,
  ) {}

  async accept(terminal: KeyTerminal, answer: HostAnswer, source: WorkingKeySource): Promise<KeyAcceptance> {
    if (!answer.workingKeyUnderZmk) return { kind: 'none' };
    let clear: Buffer;
    try {
      clear = this.protocols.decryptUnderZmk(this.config.zmk, answer.workingKeyUnderZmk);
    } catch (error) {
      return { kind: 'refused', reason: `the working key cannot be decrypted under the ZMK: ${error instanceof Error ? error.message : String(error)}` };
    }
    const computed = this.protocols.keyCheckValue(clear).toUpperCase();
    const announced = answer.keyCheckValue?.toUpperCase();
    if (announced !== undefined && (announced.length < 4 || !computed.startsWith(announced.slice(0, 6)))) {
      this.logger.warn(
        `${terminal.format} ${terminal.endpoint} ${terminal.tid}: working key check value mismatch (host ${announced}, key ${computed}): key not stored`,
      );
      return { kind: 'refused', reason: `working key check value mismatch (host sent ${announced}, the key gives ${computed}): key not stored` };
    }
    const { origin, ...where } = terminal;
    const intervalMs = this.config.keyExchange.intervalMs;
    await this.keys.store({
      ...where,
      sealedKey: this.cipher.seal(clear.toString('hex')),
      keyCheckValue: computed.slice(0, 6),
      source,
      hostUrl: origin?.hostUrl ?? null,
      mid: origin?.mid ?? null,
      acptId: origin?.acptId ?? null,
      acquirerId: origin?.acquirerId ?? null,
      exchangeInMs: origin !== null && intervalMs > 0 ? intervalMs : null,
    });
    clear.fill(0);
    return { kind: 'stored', keyCheckValue: computed.slice(0, 6) };
  }
}
