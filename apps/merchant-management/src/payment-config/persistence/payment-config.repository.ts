import { PageRequest } from '@app/common';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { InjectMmDataSource } from '../../shared/inject';

/** A binding with its methods, grouped per (acquirerProfileId, currency). */
export interface BindingRecord {
  bindingId: number;
  merchantUuid: string;
  acquirerProfileId: number;
  profileName: string;
  acqType: string;
  currency: string;
  mid: string | null;
  /** The acquirer profile's connection, as the activation profile needs it. */
  connMessageFormat: string;
  enablerMsgFormat: string | null;
  enablerParams: string | null;
  connUrl: string | null;
  methods: { paymentMethodCode: string; allows: string[]; emvs: { emvId: number; emvName: string; aid: string | null }[] }[];
}

export interface NewMethodBinding {
  paymentMethodCode: string;
  allows: string[];
  emvIds: number[];
}

/**
 * SQL expression: the bindings of merchant row `m` as a JSON array of {@link BindingRecord}, so a
 * merchant and its payment summary come back in one round trip.
 */
export const BINDINGS_JSON_OF_MERCHANT = `COALESCE((
  SELECT json_agg(json_build_object(
           'bindingId', b.id, 'merchantUuid', b.merchant_uuid, 'acquirerProfileId', b.acquirer_profile_id,
           'profileName', a.profile_name, 'acqType', a.acq_type, 'currency', b.currency, 'mid', b.mid,
           'connMessageFormat', a.conn_message_format, 'enablerMsgFormat', a.enabler_msg_format,
           'enablerParams', a.enabler_params, 'connUrl', a.conn_url,
           'methods', COALESCE((
             SELECT json_agg(json_build_object(
                      'paymentMethodCode', pm.payment_method_code, 'allows', pm.allows,
                      'emvs', COALESCE((
                        SELECT json_agg(json_build_object('emvId', e.emv_id, 'emvName', c.emv_name, 'aid', c.aid) ORDER BY e.position)
                          FROM payment_method_emv e JOIN emv_config c ON c.id = e.emv_id
                         WHERE e.method_id = pm.id), '[]'::json))
                    ORDER BY pm.payment_method_code)
               FROM payment_method_binding pm WHERE pm.binding_id = b.id), '[]'::json))
         ORDER BY b.id)
    FROM payment_binding b JOIN acquirer_profile a ON a.id = b.acquirer_profile_id
   WHERE b.merchant_uuid = m.uuid), '[]'::json)`;

@Injectable()
export class PaymentConfigRepository {
  constructor(@InjectMmDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Every binding of these merchants, with methods and EMV configs. */
  async bindingsOfMerchants(merchantUuids: string[], manager: EntityManager = this.dataSource.manager): Promise<BindingRecord[]> {
    if (merchantUuids.length === 0) return [];
    const rows: { bindings: BindingRecord[] }[] = await manager.query(
      `SELECT ${BINDINGS_JSON_OF_MERCHANT} AS bindings FROM merchant m WHERE m.uuid = ANY($1::uuid[])`,
      [merchantUuids],
    );
    return rows.flatMap((row) => row.bindings);
  }

  /** One page of a merchant's bindings (GET payment config). */
  async bindingsPage(merchantUuid: string, page: PageRequest): Promise<[BindingRecord[], number]> {
    const bindings = await this.bindingsOfMerchants([merchantUuid]);
    const end = page.limit === null ? undefined : page.offset + page.limit;
    return [bindings.slice(page.offset, end), bindings.length];
  }

  async countBindings(merchantUuid: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const [{ n }]: { n: number }[] = await manager.query('SELECT count(*)::int AS n FROM payment_binding WHERE merchant_uuid = $1', [merchantUuid]);
    return n;
  }

  /** The binding id of (merchant, profile, currency), optionally locked for update. */
  async findBindingId(manager: EntityManager, merchantUuid: string, profileId: number, currency: string, lock = false): Promise<number | undefined> {
    const rows: { id: number }[] = await manager.query(
      `SELECT id FROM payment_binding WHERE merchant_uuid = $1 AND acquirer_profile_id = $2 AND currency = $3${lock ? ' FOR UPDATE' : ''}`,
      [merchantUuid, profileId, currency],
    );
    return rows[0]?.id;
  }

  /** Creates the binding or, when it exists, updates its mid (when given); answers its id. */
  async upsertBinding(manager: EntityManager, values: { merchantUuid: string; groupId: string; profileId: number; currency: string; mid: string | null | undefined }): Promise<number> {
    const rows: { id: number }[] = await manager.query(
      `INSERT INTO payment_binding (merchant_uuid, group_id, acquirer_profile_id, currency, mid)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ON CONSTRAINT uq_payment_binding_profile_currency
       DO UPDATE SET mid = CASE WHEN $6 THEN EXCLUDED.mid ELSE payment_binding.mid END, updated_at = now()
       RETURNING id`,
      [values.merchantUuid, values.groupId, values.profileId, values.currency, values.mid ?? null, values.mid !== undefined],
    );
    return rows[0].id;
  }

  /** Removes methods of a binding: all of them, or those with the given codes. */
  async deleteMethods(manager: EntityManager, bindingId: number, codes?: string[]): Promise<void> {
    if (codes) await manager.query('DELETE FROM payment_method_binding WHERE binding_id = $1 AND payment_method_code = ANY($2)', [bindingId, codes]);
    else await manager.query('DELETE FROM payment_method_binding WHERE binding_id = $1', [bindingId]);
  }

  /**
   * Inserts bound methods; the unique (merchant, currency, method) constraint refuses a method
   * another profile of the merchant already holds, even when two requests race.
   */
  async insertMethods(manager: EntityManager, binding: { id: number; merchantUuid: string; currency: string }, methods: NewMethodBinding[]): Promise<void> {
    for (const method of methods) {
      const [{ id }]: { id: number }[] = await manager.query(
        `INSERT INTO payment_method_binding (binding_id, merchant_uuid, currency, payment_method_code, allows) VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING id`,
        [binding.id, binding.merchantUuid, binding.currency, method.paymentMethodCode, JSON.stringify(method.allows)],
      );
      if (method.emvIds.length > 0) {
        await manager.query(
          `INSERT INTO payment_method_emv (method_id, emv_id, position) SELECT $1, emv_id, ord - 1 FROM unnest($2::int[]) WITH ORDINALITY AS t(emv_id, ord)`,
          [id, method.emvIds],
        );
      }
    }
  }

  async deleteBinding(manager: EntityManager, bindingId: number): Promise<void> {
    await manager.query('DELETE FROM payment_binding WHERE id = $1', [bindingId]);
  }

  /** Which acquirer profile of the merchant holds (currency, method), for the conflict message. */
  async holderOf(merchantUuid: string, currency: string, code: string, manager: EntityManager = this.dataSource.manager): Promise<{ profileId: number; profileName: string } | undefined> {
    const rows: { profile_id: number; profile_name: string }[] = await manager.query(
      `SELECT a.id AS profile_id, a.profile_name FROM payment_method_binding m
         JOIN payment_binding b ON b.id = m.binding_id JOIN acquirer_profile a ON a.id = b.acquirer_profile_id
        WHERE m.merchant_uuid = $1 AND m.currency = $2 AND m.payment_method_code = $3`,
      [merchantUuid, currency, code],
    );
    return rows[0] ? { profileId: rows[0].profile_id, profileName: rows[0].profile_name } : undefined;
  }

  /** Methods (with their EMV ids) that merchants bind under a profile. */
  async methodsBoundToProfile(profileId: number, manager: EntityManager = this.dataSource.manager): Promise<{ mchId: string; currency: string; paymentMethodCode: string; emvIds: number[] }[]> {
    const rows: { mch_id: string; currency: string; payment_method_code: string; emv_ids: number[] }[] = await manager.query(
      `SELECT mc.mch_id, m.currency, m.payment_method_code,
              COALESCE(array_agg(e.emv_id) FILTER (WHERE e.emv_id IS NOT NULL), '{}') AS emv_ids
         FROM payment_binding b
         JOIN merchant mc ON mc.uuid = b.merchant_uuid
         JOIN payment_method_binding m ON m.binding_id = b.id
         LEFT JOIN payment_method_emv e ON e.method_id = m.id
        WHERE b.acquirer_profile_id = $1
        GROUP BY mc.mch_id, m.id`,
      [profileId],
    );
    return rows.map((row) => ({ mchId: row.mch_id, currency: row.currency, paymentMethodCode: row.payment_method_code, emvIds: row.emv_ids }));
  }

  /** Every merchant bound to a profile (for re-push), in a stable order so locks are taken alike. */
  async merchantUuidsBoundToProfile(profileId: number, manager: EntityManager = this.dataSource.manager): Promise<string[]> {
    const rows: { merchant_uuid: string }[] = await manager.query('SELECT DISTINCT merchant_uuid FROM payment_binding WHERE acquirer_profile_id = $1 ORDER BY 1', [profileId]);
    return rows.map((row) => row.merchant_uuid);
  }

  /** mchIds of (up to 10) merchants bound to a profile. */
  async merchantsBoundToProfile(profileId: number, manager: EntityManager = this.dataSource.manager): Promise<string[]> {
    const rows: { mch_id: string }[] = await manager.query(
      `SELECT DISTINCT mc.mch_id FROM payment_binding b JOIN merchant mc ON mc.uuid = b.merchant_uuid WHERE b.acquirer_profile_id = $1 ORDER BY 1 LIMIT 10`,
      [profileId],
    );
    return rows.map((row) => row.mch_id);
  }

  /** Removes a payment method from every binding of a merchant; answers the ids of the bindings it was in. */
  async deleteMethodOfMerchant(manager: EntityManager, merchantUuid: string, code: string): Promise<number[]> {
    // A SELECT over the deleting CTE: TypeORM answers plain rows for it (a bare DELETE answers [rows, count]).
    const rows: { binding_id: number }[] = await manager.query(
      `WITH removed AS (DELETE FROM payment_method_binding WHERE merchant_uuid = $1 AND payment_method_code = $2 RETURNING binding_id)
       SELECT DISTINCT binding_id FROM removed ORDER BY binding_id`,
      [merchantUuid, code],
    );
    return rows.map((row) => row.binding_id);
  }

  /** Deletes those of the given bindings that have no method left. */
  async deleteBindingsWithoutMethods(manager: EntityManager, bindingIds: number[]): Promise<void> {
    await manager.query(
      'DELETE FROM payment_binding b WHERE b.id = ANY($1::int[]) AND NOT EXISTS (SELECT 1 FROM payment_method_binding m WHERE m.binding_id = b.id)',
      [bindingIds],
    );
  }
}
