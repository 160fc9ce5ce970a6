import { DomainError } from '@app/common';
import { describeValidationErrors, isPaymentMethodCode, PaymentMethodCode, paymentMethodName } from '@app/contracts';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min, validateSync } from 'class-validator';

/**
 * An EMV binary field of `min` to `max` bytes, as hex (two digits a byte): its rule for
 * `@Matches` and the words of its 10000, naming the tag.
 */
function hexBytes(tag: string, min: number, max = min): [RegExp, { message: string }] {
  const size = min === max ? `${min} byte${min === 1 ? '' : 's'}, ${2 * min} hex digits` : `${min} to ${max} bytes, an even number of 2 to ${2 * max} hex digits`;
  return [new RegExp(`^(?:[0-9A-Fa-f]{2}){${min},${max}}$`), { message: `$property must be ${tag}: ${size}` }];
}
const MAX_AMOUNT = 999_999_999_999; // n12, the EMV amount field

/** Accepts a JSON number or a string of digits for the `long` limits of the EMV table. */
const toLong = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : value);

/** The formats of the binary fields of {@link EmvParamsDto}, for the API documents. */
export const EMV_BINARY_FORMATS =
  'binary fields are hex of whole bytes: appVersion 9F09 (4 hex digits), terminalTransactionQualifiers 9F66 (8), terminalRiskMgmtData 9F1D (2 to 16), defaultDDOL/defaultTDOL (2 to 256), kernelConfiguration DF811B, cvmCapabilityCVMRequired DF8118, cvmCapabilityNoCVM DF8119 (2 each)';

/** The EMV parameter object (docs/decisions.md, "EMV parameter object"); unknown keys are refused. */
export class EmvParamsDto {
  /** One AID, or several separated by commas, hex. */
  @IsString()
  @Matches(/^[0-9A-Fa-f]{10,32}(,[0-9A-Fa-f]{10,32})*$/, { message: '$property must be one or more hex AIDs (10 to 32 hex digits) separated by commas' })
  aid: string;

  @IsOptional() @IsString() @Matches(...hexBytes('the application version number (9F09)', 2)) appVersion?: string;
  @IsOptional() @IsString() @Matches(...hexBytes('the terminal transaction qualifiers (9F66)', 4)) terminalTransactionQualifiers?: string;
  @IsOptional() @Transform(toLong) @IsInt() @Min(0) @Max(MAX_AMOUNT) clFloorLimit?: number;
  @IsOptional() @Transform(toLong) @IsInt() @Min(0) @Max(MAX_AMOUNT) clTransLimit?: number;
  @IsOptional() @Transform(toLong) @IsInt() @Min(0) @Max(MAX_AMOUNT) clCVMLimit?: number;
  @IsOptional() @IsString() @Matches(...hexBytes('terminal risk management data (9F1D)', 1, 8)) terminalRiskMgmtData?: string;
  @IsOptional() @IsString() @Matches(...hexBytes('a data object list', 1, 128)) defaultDDOL?: string;
  @IsOptional() @IsString() @Matches(...hexBytes('a data object list', 1, 128)) defaultTDOL?: string;
  @IsOptional() @IsString() @Matches(...hexBytes('the kernel configuration (DF811B)', 1)) kernelConfiguration?: string;
  @IsOptional() @IsBoolean() isNewCVMRuleForMC?: boolean;
  @IsOptional() @IsString() @Matches(...hexBytes('the CVM capability, CVM required (DF8118)', 1)) cvmCapabilityCVMRequired?: string;
  @IsOptional() @IsString() @Matches(...hexBytes('the CVM capability, no CVM (DF8119)', 1)) cvmCapabilityNoCVM?: string;
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
