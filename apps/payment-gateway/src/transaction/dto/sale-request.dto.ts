import { DECIMAL_AMOUNT_PATTERN, IsIsoCurrency } from '@app/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
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
  @Matches(/^[^\u0000-\u001F\u007F]*$/, { message: '$property must not contain control characters' })
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
