import { DECIMAL_AMOUNT_PATTERN } from '@app/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

const AMOUNT_RULE = { message: '$property must be a decimal amount such as 12.50' };

/** Body of `POST /{ns}/api/v1/transaction/{tranId}/refund`. */
export class RefundRequestDto {
  @ApiProperty({ example: '5.00', description: "decimal, in the transaction's currency and its exponent; more than zero, at most what is left to refund" })
  @IsString()
  @Matches(DECIMAL_AMOUNT_PATTERN, AMOUNT_RULE)
  amount: string;

  @ApiPropertyOptional({ maxLength: 256, example: 'customer returned the goods', description: "kept on the refund's action (extraData.reason)" })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  reason?: string;
}

/** Body of `POST /{ns}/api/v1/transaction/{tranId}/capture` (may be empty: all of the authorisation). */
export class CaptureRequestDto {
  @ApiPropertyOptional({ example: '40.00', description: 'decimal, at most the authorised amount; absent: all of it. A partial capture releases the rest.' })
  @IsOptional()
  @IsString()
  @Matches(DECIMAL_AMOUNT_PATTERN, AMOUNT_RULE)
  amount?: string;
}
