import { formatTimestamp, IsPlainObject } from '@app/common';
import { IsPaymentMethodCode, paymentMethodCodeOf } from '@app/contracts';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { LegacyGroupIdField, LegacyPageSize } from '../../../shared/legacy';
import { EmvListQueryDto } from '../../dto/emv.dto';
import { EMV_BINARY_FORMATS } from '../../dto/emv-params.dto';
import { EmvConfigView } from '../../emv-config.view';

/** A payment method name (`VISA`, any case) becomes its code; anything else is left for the validator to refuse. */
const toMethodCode = ({ value }: { value: unknown }) => (typeof value === 'string' ? (paymentMethodCodeOf(value) ?? value) : value);

/** `POST`/`PUT /api/v2/emv`: `params` is an object here (v1 sends it JSON-encoded). */
export class LegacyEmvWriteDto {
  @ApiProperty({ maxLength: 128 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  emvName: string;

  @ApiProperty({ example: '01', description: 'payment method code 01..06 (a name such as VISA is accepted and stored as its code)' })
  @Transform(toMethodCode)
  @IsPaymentMethodCode()
  paymentMethod: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      `EMV parameter object: aid (required), appVersion, terminalTransactionQualifiers, clFloorLimit, clTransLimit, clCVMLimit, terminalRiskMgmtData, defaultDDOL, defaultTDOL, kernelConfiguration, isNewCVMRuleForMC, cvmCapabilityCVMRequired, cvmCapabilityNoCVM; a key of another payment method is refused (terminalTransactionQualifiers: not for MASTERCARD or AMEX; terminalRiskMgmtData, kernelConfiguration, isNewCVMRuleForMC: MASTERCARD only); ${EMV_BINARY_FORMATS}`,
    example: { aid: 'A0000000031010', appVersion: '0096', clFloorLimit: 0, clTransLimit: 500000, clCVMLimit: 25000 },
  })
  @IsPlainObject()
  params: Record<string, unknown>;

  @LegacyGroupIdField()
  groupId?: string;
}

/** `GET /api/v2/emv`: pageSize defaults to 10. */
export class LegacyEmvListQueryDto extends EmvListQueryDto {
  @LegacyPageSize()
  override pageSize?: number = undefined;
}

/** EMV config (legacy): the v1 record without `currency`, which the legacy API does not know. */
export class LegacyEmvConfigDto {
  @ApiProperty() id: number;
  @ApiProperty() emvName: string;
  @ApiProperty() groupId: string;
  @ApiProperty({ description: 'payment method code' }) paymentMethod: string;
  @ApiProperty({ type: String, nullable: true, description: 'params.aid' }) aid: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'params.appVersion' }) emvVersion: string | null;
  @ApiProperty({ description: 'JSON-encoded EMV parameter object' }) params: string;
  @ApiProperty({ example: '2026-01-01T00:00:00+0000' }) createdAt: string;
  @ApiProperty({ example: '2026-01-01T00:00:00+0000' }) updatedAt: string;
}

/** The legacy shape of an EMV config: params JSON-encoded as in v1, no currency. */
export function toLegacyEmvConfig(emv: EmvConfigView): LegacyEmvConfigDto {
  return {
    id: emv.id,
    emvName: emv.emvName,
    groupId: emv.groupId,
    paymentMethod: emv.paymentMethod,
    aid: emv.aid,
    emvVersion: emv.emvVersion,
    params: JSON.stringify(emv.params),
    createdAt: formatTimestamp(emv.createdAt),
    updatedAt: formatTimestamp(emv.updatedAt),
  };
}
