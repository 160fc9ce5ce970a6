import { formatTimestamp, IsJsonObjectString, PageQueryDto } from '@app/common';
import { IsIsoCurrency, IsPaymentMethodCode } from '@app/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { EmvConfigView } from '../emv-config.view';
import { EMV_BINARY_FORMATS } from './emv-params.dto';

/** `POST`/`PUT /api/openapi/v1/emv`. */
export class EmvWriteDto {
  @ApiProperty({ maxLength: 128 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  emvName: string;

  @ApiProperty({ description: 'payment method code 01..06', example: '01' })
  @IsPaymentMethodCode()
  paymentMethod: string;

  @ApiProperty({ example: 'MYR' })
  @IsIsoCurrency()
  currency: string;

  @ApiProperty({
    description:
      `JSON-encoded EMV parameter object: aid (required), appVersion, terminalTransactionQualifiers, clFloorLimit, clTransLimit, clCVMLimit, terminalRiskMgmtData, defaultDDOL, defaultTDOL, kernelConfiguration, isNewCVMRuleForMC, cvmCapabilityCVMRequired, cvmCapabilityNoCVM; a key of another payment method is refused (terminalTransactionQualifiers: not for MASTERCARD or AMEX; terminalRiskMgmtData, kernelConfiguration, isNewCVMRuleForMC: MASTERCARD only); ${EMV_BINARY_FORMATS}`,
    example: '{"aid":"A0000000031010","appVersion":"0096","clFloorLimit":0,"clTransLimit":500000,"clCVMLimit":25000}',
  })
  @IsJsonObjectString()
  params: string;
}

export class EmvListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'partial match' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  emvName?: string;

  @ApiPropertyOptional({ description: 'payment method code' })
  @IsOptional()
  @IsPaymentMethodCode()
  paymentMethod?: string;
}

export class EmvConfigDto {
  @ApiProperty() id: number;
  @ApiProperty() emvName: string;
  @ApiProperty() groupId: string;
  @ApiProperty({ description: 'payment method code' }) paymentMethod: string;
  @ApiProperty({ type: String, nullable: true }) currency: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'params.aid' }) aid: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'params.appVersion' }) emvVersion: string | null;
  @ApiProperty({ description: 'JSON-encoded EMV parameter object' }) params: string;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
}

/** The v1 shape of an EMV config (params JSON-encoded). */
export function toEmvConfigDto(emv: EmvConfigView): EmvConfigDto {
  return {
    id: emv.id,
    emvName: emv.emvName,
    groupId: emv.groupId,
    paymentMethod: emv.paymentMethod,
    currency: emv.currency,
    aid: emv.aid,
    emvVersion: emv.emvVersion,
    params: JSON.stringify(emv.params),
    createdAt: formatTimestamp(emv.createdAt),
    updatedAt: formatTimestamp(emv.updatedAt),
  };
}

export class IdDto {
  @ApiProperty() id: number;
}
