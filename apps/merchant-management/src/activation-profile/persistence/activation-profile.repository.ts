import { GATEWAY_PROFILE_UPSERT_V1, GatewayProfileUpsertV1 } from '@app/contracts';
import { TypeOrmUnitOfWork } from '@app/database';
import { OutboxWriter } from '@app/messaging';
import { Injectable } from '@nestjs/common';
import { DeviceStatus } from '../../shared/device-status';
import { ProfiledDevice, ProfileMerchant, ProfileValues } from '../acceptance';
import { BINDINGS_JSON_OF_MERCHANT, BindingRecord } from '../binding-record';

/** The first key of the terminals' advisory locks (`pg_advisory_xact_lock(int, int)`): apart from every other lock of the database. */
const TERMINAL_LOCK_SPACE = 1406_0014;

/**
 * What the activation profile reads and writes: the merchant row and bindings a profile is built
 * from, the profile columns of the merchant's devices, and the gateway upserts in the outbox. It
 * reads those tables with its own SQL, so this feature imports none of the features above it.
 * Every statement joins the caller's unit of work.
 */
@Injectable()
export class ActivationProfileRepository {
  constructor(
    private readonly uow: TypeOrmUnitOfWork,
    private readonly outbox: OutboxWriter,
  ) {}

  /** Locks the merchant row: `share` while a new device reads its bindings, `update` while they change. */
  async lockMerchant(groupId: string, merchantUuid: string, mode: 'share' | 'update'): Promise<void> {
    await this.uow.manager.query(`SELECT 1 FROM merchant WHERE uuid = $1 AND group_id = $2 FOR ${mode === 'share' ? 'SHARE' : 'UPDATE'}`, [merchantUuid, groupId]);
  }

  /** The merchant's fields the profile carries and its bindings, in one statement; null when not the PBO's. */
  async source(groupId: string, merchantUuid: string): Promise<{ merchant: ProfileMerchant; bindings: BindingRecord[] } | null> {
    const rows: (ProfileMerchant & { bindings: BindingRecord[] })[] = await this.uow.manager.query(
      `SELECT m.uuid, m.group_id AS "groupId", m.mch_id AS "mchId", m.mch_name AS "mchName", m.contact_address AS "contactAddress", m.time_zone AS "timeZone",
              m.mcc, m.country, m.currency, ${BINDINGS_JSON_OF_MERCHANT} AS bindings
         FROM merchant m WHERE m.uuid = $1 AND m.group_id = $2`,
      [merchantUuid, groupId],
    );
    if (!rows[0]) return null;
    const { bindings, ...merchant } = rows[0];
    return { merchant, bindings };
  }

  /**
   * A merchant's devices that still get pushes (all but decommissioned), locked for update; with
   * `only`, exactly those of its devices, whatever their status (a replay).
   */
  async devicesOfMerchantForUpdate(groupId: string, merchantUuid: string, only?: readonly string[]): Promise<ProfiledDevice[]> {
    return this.uow.manager.query(
      `SELECT d.uuid, d.group_id AS "groupId", d.device_status AS "deviceStatus", d.device_id AS "deviceId", d.device_alias AS "deviceAlias", d.device_name AS "deviceName",
              d.method_list AS "methodList", d.ext_params AS "extParams", d.emv_params AS "emvParams",
              d.profile_id AS "profileId", d.profile_version AS "profileVersion", d.acceptances
         FROM device d
        WHERE d.merchant_uuid = $1 AND d.group_id = $2 AND ${only ? 'd.uuid = ANY($3::uuid[])' : 'd.device_status <> $3'}
        ORDER BY d.uuid
          FOR UPDATE`,
      [merchantUuid, groupId, only ? [...only] : DeviceStatus.Decommissioned],
    );
  }

  /**
   * The acceptances of other PBOs' devices (not decommissioned, with a profile) naming one of
   * these (format, MID, TID; MID and TID without surrounding spaces, `terminalIdOf`), each with
   * whether `deviceUuid` is older than its device (`writerIsOlder`; never for a device being
   * created) and the PBO it belongs to (whose allow-list scope its address is asked in). The host is
   * compared by the caller, as the connector keys it, and so is the rule
   * that an older device keeps a terminal its stored acceptances already name at that host
   * (r14c item 4, r14e). Acceptance snapshots keep the acquirer's address as `extraParams.connUrl`.
   */
  terminalsOfOtherPbos(
    groupId: string,
    deviceUuid: string | null,
    identities: Array<{ hostMessageFormat: string; mid: string; tid: string }>,
  ): Promise<Array<{ groupId: string; hostMessageFormat: string; hostUrl: string | null; mid: string; tid: string; writerIsOlder: boolean }>> {
    // A device being created (`deviceUuid` null) is the newest whatever its created_at, which is its
    // transaction's start: a device another PBO committed while this one waited for the terminal's
    // lock may carry a later one, and still holds the terminal first.
    return this.uow.manager.query(
      `SELECT DISTINCT d.group_id AS "groupId", a->>'hostMessageFormat' AS "hostMessageFormat", a->'extraParams'->>'connUrl' AS "hostUrl", a->>'primaryMid' AS mid, a->>'primaryTid' AS tid,
              EXISTS (SELECT 1 FROM device me WHERE me.uuid = $2::uuid AND (me.created_at, me.uuid) < (d.created_at, d.uuid)) AS "writerIsOlder"
         FROM device d CROSS JOIN LATERAL jsonb_array_elements(d.acceptances) a
         JOIN jsonb_to_recordset($3::jsonb) AS v("hostMessageFormat" text, mid text, tid text)
           ON a->>'hostMessageFormat' = v."hostMessageFormat" AND btrim(a->>'primaryMid', ' ') = v.mid AND btrim(a->>'primaryTid', ' ') = v.tid
        WHERE d.group_id <> $1 AND d.device_status <> $4 AND d.profile_id IS NOT NULL`,
      [groupId, deviceUuid, JSON.stringify(identities), DeviceStatus.Decommissioned],
    );
  }

  /** The terminals a device's stored (last pushed) acceptances name, its address as written (null: the connector's default). */
  async storedTerminalsOf(deviceUuid: string): Promise<Array<{ hostMessageFormat: string; hostUrl: string | null; mid: string | null; tid: string | null }>> {
    return this.uow.manager.query(
      `SELECT a->>'hostMessageFormat' AS "hostMessageFormat", a->'extraParams'->>'connUrl' AS "hostUrl", a->>'primaryMid' AS mid, a->>'primaryTid' AS tid
         FROM device d CROSS JOIN LATERAL jsonb_array_elements(d.acceptances) a
        WHERE d.uuid = $1::uuid`,
      [deviceUuid],
    );
  }

  /**
   * Serialises every write that names one of these terminals (format, MID and TID without their
   * pad), whatever the PBO, until the caller's transaction ends: a transaction-scoped advisory lock
   * per terminal, taken in key order (two writers of several terminals never wait on each other in
   * a circle). The host is not in the key (its spelling needs the connector to compare): terminals
   * that differ only by host serialise too, which costs nothing but a wait.
   */
  async lockTerminals(identities: ReadonlyArray<{ hostMessageFormat: string; mid: string; tid: string }>): Promise<void> {
    const keys = [...new Set(identities.map((identity) => JSON.stringify([identity.hostMessageFormat, identity.mid, identity.tid])))].sort();
    if (keys.length === 0) return;
    await this.uow.manager.query(
      `SELECT pg_advisory_xact_lock(${TERMINAL_LOCK_SPACE}, hashtext(k)) FROM (SELECT k FROM unnest($1::text[]) AS k ORDER BY k) AS ordered`,
      [keys],
    );
  }

  /** Merchants with a device awaiting its activeSdkId re-push (see the migration 1764100000000), up to `limit`. */
  merchantsAwaitingActiveSdk(limit: number): Promise<Array<{ groupId: string; merchantUuid: string }>> {
    return this.uow.manager.query(
      `SELECT DISTINCT group_id AS "groupId", merchant_uuid AS "merchantUuid" FROM device WHERE active_sdk_backfill ORDER BY 2 LIMIT $1`,
      [limit],
    );
  }

  /** Clears the mark of the merchant's marked devices and answers them (the caller holds the merchant's update lock). */
  async takeAwaitingActiveSdk(groupId: string, merchantUuid: string): Promise<string[]> {
    const [rows]: [Array<{ uuid: string }>, number] = await this.uow.manager.query(
      `UPDATE device SET active_sdk_backfill = false WHERE group_id = $1 AND merchant_uuid = $2 AND active_sdk_backfill RETURNING uuid`,
      [groupId, merchantUuid],
    );
    return rows.map((row) => row.uuid);
  }

  /** Every merchant of the PBO bound to an acquirer profile, in a stable order so locks are taken alike. */
  async merchantUuidsBoundToProfile(groupId: string, profileId: number): Promise<string[]> {
    const rows: { merchant_uuid: string }[] = await this.uow.manager.query(
      'SELECT DISTINCT merchant_uuid FROM payment_binding WHERE acquirer_profile_id = $1 AND group_id = $2 ORDER BY 1',
      [profileId, groupId],
    );
    return rows.map((row) => row.merchant_uuid);
  }

  /**
   * The profile fields of many devices in one statement; a field a device's values leave out is
   * kept.
   */
  async updateProfiles(groupId: string, changes: { uuid: string; values: ProfileValues }[]): Promise<void> {
    if (changes.length === 0) return;
    await this.uow.manager.query(
      `UPDATE device AS d
          SET acceptances = COALESCE(v.acceptances, d.acceptances),
              profile_id = COALESCE(v.profile_id, d.profile_id),
              profile_version = COALESCE(v.profile_version, d.profile_version),
              device_update = COALESCE(v.device_update, d.device_update),
              updated_at = CURRENT_TIMESTAMP
         FROM unnest($1::uuid[], $2::jsonb[], $3::varchar[], $4::int[], $5::smallint[]) AS v(uuid, acceptances, profile_id, profile_version, device_update)
        WHERE d.uuid = v.uuid AND d.group_id = $6`,
      [
        changes.map((c) => c.uuid),
        changes.map((c) => (c.values.acceptances === undefined ? null : JSON.stringify(c.values.acceptances))),
        changes.map((c) => c.values.profileId ?? null),
        changes.map((c) => c.values.profileVersion ?? null),
        changes.map((c) => c.values.deviceUpdate ?? null),
        groupId,
      ],
    );
  }

  /**
   * Sets deviceUpdate 1 on the PBO's devices, neither pending nor decommissioned, that get an EMV
   * config's AIDs: an acceptance of the device carries a method that a binding of its merchant to
   * that acceptance's acquirer profile lists the config under (as `emvAidsOf` of the builder reads it).
   * Rows are locked in uuid order, as a re-push locks them. Answers how many devices were flagged.
   */
  async flagDevicesUsingEmv(groupId: string, emvId: number): Promise<number> {
    const rows: { uuid: string }[] = await this.uow.manager.query(
      `WITH reached AS (
         SELECT d.uuid FROM device d
          WHERE d.group_id = $1 AND d.device_status NOT IN ($3, $4) AND d.device_update <> 1
            AND EXISTS (
                  SELECT 1
                    FROM payment_binding b
                    JOIN payment_method_binding pm ON pm.binding_id = b.id
                    JOIN payment_method_emv e ON e.method_id = pm.id
                    JOIN jsonb_array_elements(d.acceptances) AS acceptance
                      ON (acceptance->>'acquirerProfileId')::int = b.acquirer_profile_id
                     AND acceptance->'paymentMethodCodes' ? pm.payment_method_code
                   WHERE b.merchant_uuid = d.merchant_uuid AND e.emv_id = $2)
          ORDER BY d.uuid
            FOR UPDATE OF d)
       UPDATE device AS d SET device_update = 1, updated_at = CURRENT_TIMESTAMP
         FROM reached WHERE d.uuid = reached.uuid
       RETURNING d.uuid`,
      [groupId, emvId, DeviceStatus.Pending, DeviceStatus.Decommissioned],
    );
    return rows.length;
  }

  /** Queues gateway upserts in the current transaction (one multi-row INSERT). */
  async enqueueUpserts(upserts: GatewayProfileUpsertV1[]): Promise<void> {
    if (upserts.length > 0) await this.outbox.enqueueMany(this.uow.manager, upserts.map((payload) => ({ subject: GATEWAY_PROFILE_UPSERT_V1, payload })));
  }
}
