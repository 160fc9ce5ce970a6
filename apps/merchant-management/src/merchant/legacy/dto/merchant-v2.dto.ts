import { IsOptionalNonNull, PageQueryDto } from '@app/common';
import { IsIsoCurrency, PaymentMethodCode, paymentMethodName } from '@app/contracts';
import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { LegacyGroupIdField, LegacyPageSize } from '../../../shared/legacy';
import { MerchantDto, MerchantWriteDto, toMerchantDto } from '../../dto/merchant.dto';
import { MerchantWithBindings } from '../../merchant.view';

/**
 * `POST /api/v2/mchInfo`: the v1 write fields (the legacy list is "not shown"), `currency`
 * optional (the legacy onboarding body has none), and the legacy `groupId`.
 */
export class LegacyMerchantCreateDto extends OmitType(MerchantWriteDto, ['currency'] as const) {
  @ApiPropertyOptional({
    example: 'MYR',
    description:
      "ISO 4217; defaults to the currency of the PBO's default card acquirer profile, else the national currency of country, else of the country of timeZone (the PBO's when omitted); 10000 naming currency when none gives one",
  })
  @IsOptionalNonNull()
  @IsIsoCurrency()
  currency?: string;

  @LegacyGroupIdField()
  groupId?: string;
}

/** `PUT /api/v2/mchInfo/{mchId}`: only the fields sent change; null clears an optional field. */
export class LegacyMerchantUpdateDto extends PartialType(MerchantWriteDto, { skipNullProperties: false }) {
  @LegacyGroupIdField()
  groupId?: string;
}

/** `GET /api/v2/mchInfo`: mchId exact, mchName partial, both optional; pageSize defaults to 10. */
export class LegacyMerchantListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'exact; optional (the legacy document lists it as required, which would make the list a lookup)' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  mchId?: string;

  @ApiPropertyOptional({ description: 'partial match' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  mchName?: string;

  @LegacyPageSize()
  override pageSize?: number = undefined;
}

export class SupportedPaymentMethodDto {
  @ApiProperty({ example: 'VISA', description: 'payment method name' }) paymentMethod: string;
  @ApiProperty({ description: 'acquirer profile the method is bound to' }) profileId: number;
}

export class LegacyMerchantExtParamsDto {
  @ApiProperty({ type: String, nullable: true, description: "MID of the merchant's first binding that has one, else the PBO default MID" }) acqMid:
    string | null;
  @ApiProperty({ type: String, nullable: true, description: 'always null: TIDs belong to devices' }) acqTid: string | null;
}

/** Merchant (legacy): the v1 merchant with `supportedPaymentMethods` and `extParams` in place of `acquirers`. */
export class LegacyMerchantDto extends OmitType(MerchantDto, ['acquirers'] as const) {
  @ApiProperty({ type: [SupportedPaymentMethodDto] }) supportedPaymentMethods: SupportedPaymentMethodDto[];
  @ApiProperty({ type: LegacyMerchantExtParamsDto }) extParams: LegacyMerchantExtParamsDto;
}

/** The legacy merchant: the v1 fields but `acquirers` (the legacy shape defines itself so), with the methods by name and the acquirer MID. */
export function toLegacyMerchant(view: MerchantWithBindings): LegacyMerchantDto {
  const { bindings, defaultMid } = view;
  const { acquirers: _acquirers, ...fields } = toMerchantDto(view);
  const supportedPaymentMethods: SupportedPaymentMethodDto[] = [];
  for (const binding of bindings) {
    for (const method of binding.methods) {
      const paymentMethod = paymentMethodName(method.paymentMethodCode as PaymentMethodCode);
      if (!supportedPaymentMethods.some((m) => m.paymentMethod === paymentMethod && m.profileId === binding.acquirerProfileId)) {
        supportedPaymentMethods.push({ paymentMethod, profileId: binding.acquirerProfileId });
      }
    }
  }
  const acqMid = bindings.map((binding) => binding.mid).find((mid) => mid) ?? defaultMid ?? null;
  return { ...fields, supportedPaymentMethods, extParams: { acqMid, acqTid: null } };
}
