import { DomainError } from '@app/common';
import { describeValidationErrors } from '@app/contracts';
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
 * Validates an EMV parameter object (already parsed) and answers it normalised (limits as
 * numbers, unknown keys refused); errors name `params.<key>`.
 */
export function validateEmvParams(value: Record<string, unknown>): Record<string, unknown> {
  const instance = plainToInstance(EmvParamsDto, value);
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false, value: true } });
  if (errors.length > 0) throw DomainError.validation(describeValidationErrors(errors, 'params'));
  const normalised: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(instance)) if (field !== undefined) normalised[key] = field;
  return normalised;
}
