// class-transformer's @Type reads design-time metadata: the contract must load without Nest having loaded this first.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsObject, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { GatewayBatchTotalsV1, GatewayTerminalBatchV1, IsMerchantIdOrNull } from './gateway-transaction.v1';
import { HOST_MESSAGE_FORMATS } from './host-formats';
import { HOST_RECONCILIATIONS, HostReconciliationV1 } from './host.v1';
import { NullableButPresent } from './validation';

/**
 * Payload of {@link TXN_BATCH_SETTLED_V1}: a settlement batch of the transactions context settled
 * (its host reconciled it), published through that context's outbox in the transaction that
 * records the outcome. The batch is the gateway's terminal batch, named as the settle request
 * names it ({@link GatewayTerminalBatchV1}: group, MID, TID, currency, batchNo), with its host
 * format. Amounts are decimal strings in the currency's exponent.
 */
export class TxnBatchSettledV1 extends GatewayTerminalBatchV1 {
  /** The merchant-management merchant of the batch's first order; null for profiles made through the gateway API. */
  @IsMerchantIdOrNull()
  merchantId: string | null;

  /** The public id (`B` and 15 digits) of `/api/v2/settlement`. */
  @IsString()
  @Matches(/^B[1-9][0-9]{14}$/)
  batchId: string;

  @IsIn(HOST_MESSAGE_FORMATS)
  hostMessageFormat: string;

  /** The acquirer profile's name; null when not known. */
  @NullableButPresent()
  @IsString()
  @MaxLength(128)
  profileName: string | null;

  /** How the host agreed; null when its answer said nothing of it. */
  @NullableButPresent()
  @IsIn(HOST_RECONCILIATIONS)
  reconciliation: HostReconciliationV1 | null;

  @NullableButPresent()
  @IsString()
  @MaxLength(8)
  hostRespCode: string | null;

  /** What the gateway settled. */
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => GatewayBatchTotalsV1)
  totals: GatewayBatchTotalsV1;

  /** The host's own totals when it gave them (payments and refunds: hosts count no voids). */
  @NullableButPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => GatewayBatchTotalsV1)
  hostTotals: GatewayBatchTotalsV1 | null;

  /** The transactions the batch settled. */
  @IsArray()
  @ArrayMaxSize(100_000)
  @IsString({ each: true })
  tranIds: string[];

  /** ISO 8601, UTC. */
  @IsString()
  settledAt: string;
}
