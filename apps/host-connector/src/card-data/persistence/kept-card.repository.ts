import { FIELD_CIPHER, FieldCipher } from '@app/common';
import { FollowUpCard, reversalIccOf } from '@app/host-protocol';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HostConnectorConfig } from '../../config/host-connector.config';
import { HOST_CONNECTOR_CONFIG } from '../../config/config.token';
import { InjectHostConnectorDataSource } from '../../shared/inject';
import { Statement } from '../../shared/statement';

/**
 * Which transaction: a terminal (PBO scope, MID, TID) of one host format, and the transaction's own
 * reference, its STAN and transmission time (field 7). Nothing of the host endpoint, which changes
 * (the standalone simulator's port at each start) while the transaction can still be followed up.
 */
export interface CardKey {
  groupId: string;
  format: string;
  mid: string;
  tid: string;
  stan: string;
  transmittedAt: string;
}

const COLUMNS = ['group_id', 'format', 'mid', 'tid', 'stan', 'transmitted_at'] as const;
const KEY_MATCHES = COLUMNS.map((column, index) => `${column} = $${index + 1}`).join(' AND ');
const valuesOf = (key: CardKey): string[] => [key.groupId, key.format, key.mid, key.tid, key.stan, key.transmittedAt];

/** Reads a kept card's opened JSON; anything else (a row of another shape) is not a kept card. */
function followUpCardOf(json: string): FollowUpCard | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  const card = value as Partial<FollowUpCard> | null;
  if (card === null || typeof card !== 'object' || typeof card.pan !== 'string' || !/^[0-9]{12,19}$/.test(card.pan)) return undefined;
  const optional = (field: unknown, pattern: RegExp): string | null => (typeof field === 'string' && pattern.test(field) ? field : null);
  // Read again through the one reduction: a row can never give a reversal a track-equivalent or cardholder tag.
  const reversalIcc = typeof card.reversalIcc === 'string' ? reversalIccOf(card.reversalIcc) : undefined;
  return {
    pan: card.pan,
    expiry: optional(card.expiry, /^[0-9]{4}$/),
    panSequence: optional(card.panSequence, /^[0-9]{3}$/),
    ...(reversalIcc !== undefined ? { reversalIcc } : {}),
  };
}

/**
 * The card of sent transactions, kept for their follow-ups: only PAN, expiry and PAN sequence
 * number (PCI DSS 3.3.1), and for an authorisation's reversal its field 55 without any
 * track-equivalent or cardholder tag (`reversalIccOf`), sealed with the FieldCipher (AES-256-GCM) before it reaches the
 * database, opened only to build a follow-up's message, deleted when the transaction can no longer
 * be followed up and at the latest by the retention rule once HOST_CARD_DATA_DAYS have passed.
 * Never logged.
 */
@Injectable()
export class KeptCardRepository {
  private readonly logger = new Logger('KeptCardRepository');

  constructor(
    @InjectHostConnectorDataSource() private readonly dataSource: DataSource,
    @Inject(FIELD_CIPHER) private readonly cipher: FieldCipher,
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
  ) {}

  /** Keeps `card` for the follow-ups of the transaction `key` names; a wrapped STAN's older row is replaced. */
  async keep(key: CardKey, card: FollowUpCard): Promise<void> {
    const { sql, params } = this.keepStatement(key, card);
    await this.dataSource.query(sql, params);
  }

  /** {@link keep}'s statement, to be run alongside another (the request log's write-ahead: one round trip, one commit). */
  keepStatement(key: CardKey, card: FollowUpCard): Statement {
    const reversalIcc = card.reversalIcc === undefined ? undefined : reversalIccOf(card.reversalIcc);
    const kept: FollowUpCard = { pan: card.pan, expiry: card.expiry, panSequence: card.panSequence, ...(reversalIcc !== undefined ? { reversalIcc } : {}) };
    return {
      sql: `INSERT INTO kept_card (${COLUMNS.join(', ')}, sealed_card, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + $8 * interval '1 millisecond')
       ON CONFLICT (${COLUMNS.join(', ')}) DO UPDATE SET sealed_card = excluded.sealed_card, expires_at = excluded.expires_at`,
      params: [...valuesOf(key), this.cipher.seal(JSON.stringify(kept)), this.config.cardDataRetentionMs],
    };
  }

  /** The card kept for the transaction `key` names, opened; undefined when none is kept (never sent by us, followed up to its end, or expired). */
  async find(key: CardKey): Promise<FollowUpCard | undefined> {
    const rows = (await this.dataSource.query(`SELECT sealed_card FROM kept_card WHERE ${KEY_MATCHES} AND expires_at > now()`, valuesOf(key))) as {
      sealed_card: string;
    }[];
    if (rows[0] === undefined) return undefined;
    let opened: string;
    try {
      opened = this.cipher.open(rows[0].sealed_card);
    } catch {
      // Sealed under another data key (rotated, or another deployment's): the follow-up goes without it, never stopped by it.
      this.logger.warn(`kept card data of ${key.format} TID ${key.tid} STAN ${key.stan} cannot be opened with the current data key; sent without it`);
      return undefined;
    }
    return followUpCardOf(opened);
  }

  /** Deletes the card kept for each of `keys` (transactions that can have no further follow-up). */
  async forget(...keys: CardKey[]): Promise<void> {
    if (keys.length === 0) return;
    // One statement for a settled batch's transactions: a column of values per key part.
    const columns = COLUMNS.map((_, index) => keys.map((key) => valuesOf(key)[index]));
    await this.dataSource.query(
      `DELETE FROM kept_card k USING unnest(${COLUMNS.map((_, index) => `$${index + 1}::text[]`).join(', ')}) AS d(${COLUMNS.join(', ')})
        WHERE ${COLUMNS.map((column) => `k.${column} = d.${column}`).join(' AND ')}`,
      columns,
    );
  }
}
