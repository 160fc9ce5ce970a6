import { PageQueryDto } from '@app/common';
import { HOST_MID_PATTERN, HOST_MID_RULE, IsIsoCurrency, PaymentMethodCode, paymentMethodDisplayName, paymentMethodName } from '@app/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { PaymentConfigView } from '../payment-config.view';

export class EmvRefDto {
  @ApiProperty({ description: 'EMV config id' })
  @IsInt()
  @Min(1)
  @Max(2 ** 31 - 1)
  emvId: number;
}

export class PaymentMethodWriteDto {
  @ApiProperty({ example: '01' })
  @IsString()
  @IsNotEmpty()
  paymentMethodCode: string;

  @ApiPropertyOptional({ type: [String], nullable: true, description: 'allowed transaction types; reserved' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(16)
  @IsString({ each: true })
  @MaxLength(32, { each: true })
  allows?: string[] | null;

  @ApiPropertyOptional({ type: [EmvRefDto], nullable: true, description: "defaults to the acquirer profile's emvList for this method" })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(32)
  @ValidateNested({ each: true })
  @Type(() => EmvRefDto)
  emvs?: EmvRefDto[] | null;
}

/** `POST`/`PUT /api/openapi/v1/mchInfo/payment/{mchId}`. */
export class PaymentConfigWriteDto {
  @ApiProperty({ description: 'acquirer profile id (numeric string)' })
  @IsString()
  @Matches(/^\d{1,9}$/, { message: '$property must be the numeric id of an acquirer profile' })
  acquirerProfileId: string;

  @ApiProperty({ example: 'MYR' })
  @IsIsoCurrency()
  currency: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'merchant id at the acquirer host (field 42), when different from the PBO default: 1 to 15 letters, digits or spaces, not spaces only; null clears it', pattern: HOST_MID_PATTERN.source })
  @IsOptional()
  @IsString()
  @Matches(HOST_MID_PATTERN, { message: `$property ${HOST_MID_RULE}` })
  mid?: string | null;

  @ApiPropertyOptional({ type: [PaymentMethodWriteDto], nullable: true, description: "defaults to every method of the acquirer profile" })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(6)
  @ValidateNested({ each: true })
  @Type(() => PaymentMethodWriteDto)
  paymentMethods?: PaymentMethodWriteDto[] | null;
}

export class PaymentConfigDeleteQueryDto {
  @ApiProperty()
  @IsString()
  @Matches(/^\d{1,9}$/, { message: '$property must be the numeric id of an acquirer profile' })
  acquirerProfileId: string;

  @ApiProperty()
  @IsIsoCurrency()
  currency: string;
}

export class PaymentConfigListQueryDto extends PageQueryDto {}

export class EmvSummaryDto {
  @ApiProperty() emvId: number;
  @ApiProperty() emvName: string;
}

export class PaymentMethodDto {
  @ApiProperty() paymentMethodCode: string;
  @ApiProperty() paymentMethodName: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ description: 'card or qr (the acquirer profile type)' }) paymentType: string;
  @ApiProperty({ type: [String] }) allows: string[];
  @ApiProperty({ type: [EmvSummaryDto] }) emvs: EmvSummaryDto[];
}

export class PaymentConfigDto {
  @ApiProperty({ description: 'mchId' }) merchantId: string;
  @ApiProperty() acquirerProfileId: string;
  @ApiProperty() acquirerProfileName: string;
  @ApiProperty() acqType: string;
  @ApiProperty() currency: string;
  @ApiProperty({ type: String, nullable: true }) mid: string | null;
  @ApiProperty({ type: [PaymentMethodDto] }) paymentMethods: PaymentMethodDto[];
}

/** The v1 shape of a binding: the methods with their names and EMV summaries. */
export function toPaymentConfigDto({ mchId, binding }: PaymentConfigView): PaymentConfigDto {
  return {
    merchantId: mchId,
    acquirerProfileId: String(binding.acquirerProfileId),
    acquirerProfileName: binding.profileName,
    acqType: binding.acqType,
    currency: binding.currency,
    mid: binding.mid,
    paymentMethods: binding.methods.map((method) => {
      const code = method.paymentMethodCode as PaymentMethodCode;
      return {
        paymentMethodCode: code,
        paymentMethodName: paymentMethodName(code),
        displayName: paymentMethodDisplayName(code),
        paymentType: binding.acqType,
        allows: method.allows,
        emvs: method.emvs.map(({ emvId, emvName }) => ({ emvId, emvName })),
      };
    }),
  };
}
