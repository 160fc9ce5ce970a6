import { FIELD_CIPHER, FieldCipher } from '@app/common';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HostConnectorConfig } from '../../config/host-connector.config';
import { HOST_CONNECTOR_CONFIG } from '../../config/config.token';
import { InjectHostConnectorDataSource } from '../../shared/inject';

/** Which transaction: a terminal's message on one host endpoint, by STAN and transmission time (field 7). */
export interface CardKey {
  format: string;
  endpoint: string;
  tid: string;
  stan: string;
  transmittedAt: string;
}

/**
 * The card data of sent transactions, kept for their follow-ups: sealed with the FieldCipher
 * (AES-256-GCM) before it reaches the database, opened only to build a follow-up's message, and
 * deleted by the retention rule once HOST_CARD_DATA_DAYS have passed. Never logged.
 */
@Injectable()
export class KeptCardRepository {
  private readonly logger = new Logger('KeptCardRepository');

  constructor(
    @InjectHostConnectorDataSource() private readonly dataSource: DataSource,
    @Inject(FIELD_CIPHER) private readonly cipher: FieldCipher,
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
  ) {}

  /** Keeps `emvTlv` (hex) for the follow-ups of the transaction `key` names; a wrapped STAN's older row is replaced. */
  async keep(key: CardKey, emvTlv: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO kept_card (format, endpoint, tid, stan, transmitted_at, sealed_card, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + $7 * interval '1 millisecond')
       ON CONFLICT (format, endpoint, tid, stan, transmitted_at) DO UPDATE SET sealed_card = excluded.sealed_card, expires_at = excluded.expires_at`,
      [key.format, key.endpoint, key.tid, key.stan, key.transmittedAt, this.cipher.seal(emvTlv), this.config.cardDataRetentionMs],
    );
  }

  /** The card data kept for the transaction `key` names, opened; undefined when none is kept (never sent by us, or expired). */
  async find(key: CardKey): Promise<string | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT sealed_card FROM kept_card WHERE format = $1 AND endpoint = $2 AND tid = $3 AND stan = $4 AND transmitted_at = $5 AND expires_at > now()`,
      [key.format, key.endpoint, key.tid, key.stan, key.transmittedAt],
    )) as { sealed_card: string }[];
    if (rows[0] === undefined) return undefined;
    try {
      return this.cipher.open(rows[0].sealed_card);
    } catch {
      // Sealed under another data key (rotated, or another deployment's): the follow-up goes without it, never stopped by it.
      this.logger.warn(`kept card data of ${key.format} TID ${key.tid} STAN ${key.stan} cannot be opened with the current data key; sent without it`);
      return undefined;
    }
  }

  /** Deletes the card data kept for `key` (a transaction that can have no follow-up). */
  async forget(key: CardKey): Promise<void> {
    await this.dataSource.query(`DELETE FROM kept_card WHERE format = $1 AND endpoint = $2 AND tid = $3 AND stan = $4 AND transmitted_at = $5`, [
      key.format,
      key.endpoint,
      key.tid,
      key.stan,
      key.transmittedAt,
    ]);
  }
}
