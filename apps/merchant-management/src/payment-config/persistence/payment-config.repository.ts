import { PageRequest } from '@app/common';
import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { BINDINGS_JSON_OF_MERCHANT, BindingRecord } from '../../activation-profile/binding-record';

/** The merchant a payment config belongs to, as this feature needs it. */
export interface BoundMerchant {
  uuid: string;
  groupId: string;
  mchId: string;
}

export interface NewMethodBinding {
  paymentMethodCode: string;
  allows: string[];
  emvIds: number[];
}

/** Payment bindings, their methods and EMV configs. Statements join the caller's unit of work. */
@Injectable()
export class PaymentConfigRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  /** The merchant of an mchId, whatever the owner (the service tells 13000 from 14000 by its groupId). */
  async merchantByMchId(mchId: string): Promise<BoundMerchant | null> {
    const rows: BoundMerchant[] = await this.uow.manager.query('SELECT uuid, group_id AS "groupId", mch_id AS "mchId" FROM merchant WHERE mch_id = $1', [mchId]);
    return rows[0] ?? null;
  }

  /** Every binding of a merchant of the PBO, with methods and EMV configs. */
  async bindingsOfMerchant(groupId: string, merchantUuid: string): Promise<BindingRecord[]> {
    const rows: { bindings: BindingRecord[] }[] = await this.uow.manager.query(
      `SELECT ${BINDINGS_JSON_OF_MERCHANT} AS bindings FROM merchant m WHERE m.uuid = $1 AND m.group_id = $2`,
      [merchantUuid, groupId],
    );
    return rows.flatMap((row) => row.bindings);
  }

  /** One page of a merchant's bindings (GET payment config). */
  async bindingsPage(groupId: string, merchantUuid: string, page: PageRequest): Promise<[BindingRecord[], number]> {
    const bindings = await this.bindingsOfMerchant(groupId, merchantUuid);
    const end = page.limit === null ? undefined : page.offset + page.limit;
    return [bindings.slice(page.offset, end), bindings.length];
  }

  async countBindings(groupId: string, merchantUuid: string): Promise<number> {
    const [{ n }]: { n: number }[] = await this.uow.manager.query('SELECT count(*)::int AS n FROM payment_binding WHERE merchant_uuid = $1 AND group_id = $2', [merchantUuid, groupId]);
    return n;
  }

  /** The binding id of (merchant, profile, currency), optionally locked for update. */
  async findBindingId(groupId: string, merchantUuid: string, profileId: number, currency: string, lock = false): Promise<number | undefined> {
    const rows: { id: number }[] = await this.uow.manager.query(
      `SELECT id FROM payment_binding WHERE merchant_uuid = $1 AND acquirer_profile_id = $2 AND currency = $3 AND group_id = $4${lock ? ' FOR UPDATE' : ''}`,
      [merchantUuid, profileId, currency, groupId],
    );
    return rows[0]?.id;
  }

  /** Creates the binding or, when it exists, updates its mid (when given); answers its id. */
  async upsertBinding(values: { merchantUuid: string; groupId: string; profileId: number; currency: string; mid: string | null | undefined }): Promise<number> {
    const rows: { id: number }[] = await this.uow.manager.query(
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
  async deleteMethods(bindingId: number, codes?: string[]): Promise<void> {
    if (codes) await this.uow.manager.query('DELETE FROM payment_method_binding WHERE binding_id = $1 AND payment_method_code = ANY($2)', [bindingId, codes]);
    else await this.uow.manager.query('DELETE FROM payment_method_binding WHERE binding_id = $1', [bindingId]);
  }

  /**
   * Inserts bound methods; the unique (merchant, currency, method) constraint refuses a method
   * another profile of the merchant already holds, even when two requests race.
   */
  async insertMethods(binding: { id: number; merchantUuid: string; currency: string }, methods: NewMethodBinding[]): Promise<void> {
    for (const method of methods) {
      const [{ id }]: { id: number }[] = await this.uow.manager.query(
        `INSERT INTO payment_method_binding (binding_id, merchant_uuid, currency, payment_method_code, allows) VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING id`,
        [binding.id, binding.merchantUuid, binding.currency, method.paymentMethodCode, JSON.stringify(method.allows)],
      );
      if (method.emvIds.length > 0) {
        await this.uow.manager.query(
          `INSERT INTO payment_method_emv (method_id, emv_id, position) SELECT $1, emv_id, ord - 1 FROM unnest($2::int[]) WITH ORDINALITY AS t(emv_id, ord)`,
          [id, method.emvIds],
        );
      }
    }
  }

  async deleteBinding(groupId: string, bindingId: number): Promise<void> {
    await this.uow.manager.query('DELETE FROM payment_binding WHERE id = $1 AND group_id = $2', [bindingId, groupId]);
  }

  /** Which acquirer profile of the merchant holds (currency, method), for the conflict message. */
  async holderOf(groupId: string, merchantUuid: string, currency: string, code: string): Promise<{ profileId: number; profileName: string } | undefined> {
    const rows: { profile_id: number; profile_name: string }[] = await this.uow.manager.query(
      `SELECT a.id AS profile_id, a.profile_name FROM payment_method_binding m
         JOIN payment_binding b ON b.id = m.binding_id JOIN acquirer_profile a ON a.id = b.acquirer_profile_id
        WHERE m.merchant_uuid = $1 AND m.currency = $2 AND m.payment_method_code = $3 AND b.group_id = $4`,
      [merchantUuid, currency, code, groupId],
    );
    return rows[0] ? { profileId: rows[0].profile_id, profileName: rows[0].profile_name } : undefined;
  }

  /** Removes a payment method from every binding of a merchant; answers the ids of the bindings it was in. */
  async deleteMethodOfMerchant(groupId: string, merchantUuid: string, code: string): Promise<number[]> {
    // A SELECT over the deleting CTE: TypeORM answers plain rows for it (a bare DELETE answers [rows, count]).
    const rows: { binding_id: number }[] = await this.uow.manager.query(
      `WITH removed AS (
         DELETE FROM payment_method_binding m USING payment_binding b
          WHERE b.id = m.binding_id AND m.merchant_uuid = $1 AND m.payment_method_code = $2 AND b.group_id = $3
         RETURNING m.binding_id)
       SELECT DISTINCT binding_id FROM removed ORDER BY binding_id`,
      [merchantUuid, code, groupId],
    );
    return rows.map((row) => row.binding_id);
  }

  /** Deletes those of the given bindings that have no method left. */
  async deleteBindingsWithoutMethods(groupId: string, bindingIds: number[]): Promise<void> {
    await this.uow.manager.query(
      'DELETE FROM payment_binding b WHERE b.id = ANY($1::int[]) AND b.group_id = $2 AND NOT EXISTS (SELECT 1 FROM payment_method_binding m WHERE m.binding_id = b.id)',
      [bindingIds, groupId],
    );
  }
}
