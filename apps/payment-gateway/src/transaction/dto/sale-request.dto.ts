import { registerBodyDecoder } from '@app/common';
import { DECIMAL_AMOUNT_PATTERN, IsIsoCurrency, isIsoCurrency } from '@app/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  isNotEmpty,
  IsString,
  Matches,
  maxLength,
  MaxLength,
  Validate,
  ValidateNested,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { POS_REFERENCE_PATTERN, SaleRequest } from '../sale-request';

/**
 * A callbackUrl as the WHATWG URL parser (the one delivery uses) reads it: absolute http or
 * https, with a host, and without credentials, which would be echoed wherever the transaction is
 * shown. Addresses are judged at delivery (webhook/destination), where the operator's allow-list
 * and the resolved addresses are known; IPv4 in any notation is normalised there as here.
 */
@ValidatorConstraint({ name: 'callbackUrl' })
class CallbackUrlRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && callbackUrlProblem(value) === undefined;
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} ${typeof args.value === 'string' ? callbackUrlProblem(args.value) : 'must be a string'}`;
  }
}

function callbackUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return 'must be an absolute http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials (user:password@)';
  return undefined;
}

/** A description: no C0 control character nor DEL. */
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001F\u007F]*$/;

/** Hex BER-TLV of 4 to 1024 bytes: what the host contract carries as the card's EMV data. */
const EMV_DATA_PATTERN = /^([0-9A-Fa-f]{2}){4,1024}$/;

export class SaleAmountDto {
  @ApiProperty({ example: '12.50', description: "decimal string with at most the currency's ISO 4217 exponent of decimals; more than zero" })
  @IsString()
  @Matches(DECIMAL_AMOUNT_PATTERN, { message: '$property must be a decimal amount such as 12.50' })
  value: string;

  @ApiProperty({ example: 'MYR', description: "ISO 4217; must be the profile's currency" })
  @IsIsoCurrency()
  currency: string;
}

/** Body of `POST /{ns}/api/v1/transaction` (the SDK, with the device token). */
export class SaleRequestDto implements SaleRequest {
  @ApiProperty({ example: 'prof_Xq3vJ0a9T1mB7cR2sD5eWg', description: "the device's gateway profile (from activation)" })
  @IsString()
  @IsNotEmpty()
  @MaxLength(80)
  profileId: string;

  @ApiProperty({ enum: ['SALE', 'AUTH'], description: 'SALE charges at once; AUTH authorises, to be captured later' })
  @IsIn(['SALE', 'AUTH'])
  tranType: 'SALE' | 'AUTH';

  @ApiProperty({ type: SaleAmountDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => SaleAmountDto)
  amount: SaleAmountDto;

  @ApiProperty({
    example: '5A0847617390010101195F24033012314F07A0000000031010…',
    description:
      'the EMV data the card and kernel gave, hex BER-TLV (4 to 1024 bytes): 5A or 57, 5F24, 4F or 9F06, 9F26, 9F27 (an ARQC), 9F10, 9F37, 9F36, 95, 9A, 9C (00, a purchase), 9F02 (equal to amount), 5F2A (its currency), 82, 9F1A, 9F33, 9F34. Each tag once, in the templates 70 or 77 or none; every data element in its EMV format and consistent with the others (one PAN passing the Luhn check, one expiry, a card valid on 9A, one application); a read that is not is refused with 400 naming the tag. Card data: never stored, logged or published.',
  })
  @IsString()
  @Matches(EMV_DATA_PATTERN, { message: '$property must be EMV BER-TLV data in hex, 4 to 1024 bytes' })
  emvData: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 64,
    example: 'ORDER-42',
    description: "the caller's reference: 1 to 64 printable ASCII characters",
  })
  @IsOptional()
  @IsString()
  @Matches(POS_REFERENCE_PATTERN, { message: '$property must be 1 to 64 printable ASCII characters' })
  posReference?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 256, example: 'Kopi and kaya toast' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  @Matches(NO_CONTROL_CHARACTERS, { message: '$property must not contain control characters' })
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2048,
    example: 'https://merchant.example.com/softpos/callback',
    description: 'where the final transaction is POSTed (webhook)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @Validate(CallbackUrlRule)
  callbackUrl?: string | null;
}

// The sale body decoded by hand (docs/decisions.md, "bench:sale: the processes' CPU per sale"):
// every SDK sale passed through class-transformer and class-validator's metadata walk. The same
// rules, checked field by field with class-validator's own functions where a rule is not obvious;
// any body this does not accept goes to the decorators, which accept it or name the reason.
// sale-request.dto.spec.ts proves with generated bodies that it accepts nothing they refuse and
// answers what they answer.

const SALE_REQUEST_FIELDS: ReadonlySet<string> = new Set(['profileId', 'tranType', 'amount', 'emvData', 'posReference', 'description', 'callbackUrl']);
const SALE_AMOUNT_FIELDS: ReadonlySet<string> = new Set(['value', 'currency']);

/** Only the fields of `fields`, each own (a JSON body has no other). */
function onlyFields(source: object, fields: ReadonlySet<string>): source is Record<string, unknown> {
  for (const key in source) if (!fields.has(key) || !Object.prototype.hasOwnProperty.call(source, key)) return false;
  return true;
}

/** `@IsString()` with an optional `@MaxLength(max)` (class-validator's count: a surrogate pair is one) and `@Matches(pattern)`. */
function isText(value: unknown, max: number | null, pattern: RegExp | null): value is string {
  return typeof value === 'string' && (max === null || value.length <= max || maxLength(value, max)) && (pattern === null || pattern.test(value));
}

/** `@IsOptional()`: null and absent skip the field's rules. */
function absentOr(value: unknown, rules: (value: unknown) => boolean): boolean {
  return value === null || value === undefined || rules(value);
}

/** The instance class-transformer builds: the class's own fields first, then the body's, in the body's order. */
function instanceWith<T extends object>(type: new () => T, source: Record<string, unknown>, nested?: { field: string; value: object }): T {
  const instance = new type() as Record<string, unknown>;
  for (const key of Object.keys(source)) instance[key] = nested && key === nested.field ? nested.value : source[key];
  return instance as T;
}

function decodeSaleAmount(value: unknown): SaleAmountDto | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !onlyFields(value, SALE_AMOUNT_FIELDS)) return undefined;
  if (!isText(value.value, null, DECIMAL_AMOUNT_PATTERN) || !isIsoCurrency(value.currency)) return undefined;
  return instanceWith(SaleAmountDto, value);
}

export function decodeSaleRequest(body: object): SaleRequestDto | undefined {
  if (!onlyFields(body, SALE_REQUEST_FIELDS)) return undefined;
  const { profileId, tranType, emvData, posReference, description, callbackUrl } = body;
  if (!isText(profileId, 80, null) || !isNotEmpty(profileId)) return undefined;
  if (tranType !== 'SALE' && tranType !== 'AUTH') return undefined;
  const amount = decodeSaleAmount(body.amount);
  if (amount === undefined) return undefined;
  if (!isText(emvData, null, EMV_DATA_PATTERN)) return undefined;
  if (!absentOr(posReference, (value) => isText(value, null, POS_REFERENCE_PATTERN))) return undefined;
  if (!absentOr(description, (value) => isText(value, 256, NO_CONTROL_CHARACTERS))) return undefined;
  if (!absentOr(callbackUrl, (value) => isText(value, 2048, null) && callbackUrlProblem(value) === undefined)) return undefined;
  return instanceWith(SaleRequestDto, body, { field: 'amount', value: amount });
}

registerBodyDecoder(SaleRequestDto, decodeSaleRequest);
