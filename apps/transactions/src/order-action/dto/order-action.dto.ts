import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsNumber, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** The admin password of the device that took the transaction (spec 2 section 5). */
class AdminPasswordDto {
  @ApiProperty({ description: 'admin password of the device that took the transaction', maxLength: 128, writeOnly: true })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  adminPwd: string;
}

/** `POST /api/v2/order/void/{id}`. */
export class VoidDto extends AdminPasswordDto {}

/** `POST /api/v2/order/refund/{id}`. */
export class RefundDto extends AdminPasswordDto {
  @ApiProperty({ example: 5.25, description: "a number above zero with at most the currency's decimals; at most what remains refundable" })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  refundAmount: number;

  @ApiProperty({ maxLength: 256 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  refundReason: string;
}

/** `POST /api/v2/order/capture/{id}`: the body is a JSON object; `{}` captures the whole authorisation. */
export class CaptureDto {
  @ApiPropertyOptional({
    example: '10.00',
    description: 'decimal amount, at most the authorised amount (partial capture when the acquirer supports it); absent: all of it',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9]{1,12}(\.[0-9]{1,3})?$/, { message: '$property must be a decimal amount such as 12.50' })
  amount?: string;
}

/**
 * What became of the action a void, refund or capture made, beyond spec 2's fields: the host's
 * decline is a complete answer (200, code 0), told apart from an approval only here.
 */
export class ActionOutcomeDto {
  @ApiProperty({ enum: ['SUCCESS'], description: "SUCCESS: the host approved it. A decline answers 409 (code 10000) naming the host's code, and the order lists the FAILED action" })
  actionStatus: 'SUCCESS';

  @ApiProperty({ type: String, nullable: true, example: '00', description: "the host's response code (51, 05, … for a decline)" })
  hostRespCode: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Approved' })
  hostRespMessage: string | null;
}

/** What a void answers (spec 2): the order's currency and state after it, its device, and the amount voided. */
export class VoidResultDto extends ActionOutcomeDto {
  @ApiProperty({ example: 'MYR' }) currency: string;
  @ApiProperty({ example: 4, description: 'the order state after the void (4 VOIDED)' }) state: number;
  @ApiProperty() deviceId: string;
  @ApiProperty({ example: 12.5, description: 'the booked money the void gave back: the sale or captured amount voided; 0 for an authorisation never captured (its void released a hold and counts in no total)' }) refundAmount: number;
}

/** What a refund answers (spec 2): this context's number of the refund action. */
export class RefundResultDto extends ActionOutcomeDto {
  @ApiProperty({ description: "the refund's number (the order's refund action)" }) id: number;
}

/** What a capture answers: spec 2's empty object, with what became of the capture. */
export class CaptureResultDto extends ActionOutcomeDto {}
