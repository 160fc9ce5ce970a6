import { DomainError } from '@app/common';
import { describeValidationErrors, isPaymentMethodCode, PaymentMethodCode, paymentMethodName } from '@app/contracts';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, validateSync } from 'class-validator';

const HEX = /^[0-9A-Fa-f]*$/;
const MAX_AMOUNT = 999_999_999_999; // n12, the EMV amount field

/** Accepts a JSON number or a string of digits for the `long` limits of the EMV table. */
const toLong = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : value);

/** The EMV parameter object (docs/decisions.md, "EMV parameter object"); unknown keys are refused. */
export class EmvParamsDto {
  /** One AID, or several separated by commas, hex. */
  @IsString()
  @Matches(/^[0-9A-Fa-f]{10,32}(,[0-9A-Fa-f]{10,32})*$/, { message: '$property must be one or more hex AIDs (10 to 32 hex digits) separated by commas' })
  aid: string;

  @IsOptional() @IsString() @MaxLength(16) appVersion?: string;
  @IsOptional() @IsString() @Matches(HEX, { message: '$property must be hex' }) @MaxLength(8) terminalTransactionQualifiers?: string;
  @IsOptional() @Transform(toLong) @IsInt() @Min(0) @Max(MAX_AMOUNT) clFloorLimit?: number;
  @IsOptional() @Transform(toLong) @IsInt() @Min(0) @Max(MAX_AMOUNT) clTransLimit?: number;
  @IsOptional() @Transform(toLong) @IsInt() @Min(0) @Max(MAX_AMOUNT) clCVMLimit?: number;
  @IsOptional() @IsString() @Matches(HEX, { message: '$property must be hex' }) @MaxLength(64) terminalRiskMgmtData?: string;
  @IsOptional() @IsString() @Matches(HEX, { message: '$property must be hex' }) @MaxLength(256) defaultDDOL?: string;
  @IsOptional() @IsString() @Matches(HEX, { message: '$property must be hex' }) @MaxLength(256) defaultTDOL?: string;
  @IsOptional() @IsString() @Matches(HEX, { message: '$property must be hex' }) @MaxLength(16) kernelConfiguration?: string;
  @IsOptional() @IsBoolean() isNewCVMRuleForMC?: boolean;
  @IsOptional() @IsString() @Matches(HEX, { message: '$property must be hex' }) @MaxLength(8) cvmCapabilityCVMRequired?: string;
  @IsOptional() @IsString() @Matches(HEX, { message: '$property must be hex' }) @MaxLength(8) cvmCapabilityNoCVM?: string;
}

/**
 * Keys of the EMV parameter table that belong to some payment methods only (spec 2, "EMV parameter
 * object"): each with the methods that have it and the table's own words. Every other key of the
 * table applies to every method.
 */
export const METHOD_SPECIFIC_EMV_KEYS: Readonly<Record<string, { methods: readonly PaymentMethodCode[]; rule: string }>> = {
  terminalTransactionQualifiers: { methods: ['01', '03', '05', '06'], rule: 'unavailable for Mastercard and Amex' },
  terminalRiskMgmtData: { methods: ['02'], rule: 'Mastercard only' },
  kernelConfiguration: { methods: ['02'], rule: 'Mastercard only' },
  isNewCVMRuleForMC: { methods: ['02'], rule: 'Mastercard only' },
};

/** Whether an EMV parameter key of the table applies to a payment method. */
export function emvKeyAppliesTo(key: string, method: PaymentMethodCode): boolean {
  return METHOD_SPECIFIC_EMV_KEYS[key]?.methods.includes(method) ?? true;
}

/**
 * Validates an EMV parameter object (already parsed) of a config for `paymentMethod` and answers
 * it normalised (limits as numbers); unknown keys and keys of other payment methods are refused,
 * errors name `params.<key>` (and the method).
 */
export function validateEmvParams(value: Record<string, unknown>, paymentMethod: string): Record<string, unknown> {
  const instance = plainToInstance(EmvParamsDto, value);
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false, value: true } });
  if (errors.length > 0) throw DomainError.validation(describeValidationErrors(errors, 'params'));
  if (isPaymentMethodCode(paymentMethod)) {
    const foreign = Object.keys(value).find((key) => !emvKeyAppliesTo(key, paymentMethod));
    if (foreign !== undefined) {
      throw DomainError.validation(
        `params.${foreign} is not an EMV parameter of ${paymentMethodName(paymentMethod)} (${paymentMethod}): ${METHOD_SPECIFIC_EMV_KEYS[foreign].rule}`,
      );
    }
  }
  const normalised: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(instance)) if (field !== undefined) normalised[key] = field;
  return normalised;
}
