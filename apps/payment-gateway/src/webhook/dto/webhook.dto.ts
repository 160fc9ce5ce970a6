import { TRAN_ID_PATTERN } from '@app/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Matches, Max, Min } from 'class-validator';
import { DELIVERY_STATES, DeliveryState } from '../delivery/retry-policy';

export const MAX_DELIVERY_PAGE_SIZE = 100;
export const DEFAULT_DELIVERY_PAGE_SIZE = 20;

// ---- requests ---------------------------------------------------------------------------------

export class DeliveryListQueryDto {
  @ApiPropertyOptional({ example: 'tran_2b7Qx9LmN4pR8sT1vW3yZa', description: "only this transaction's deliveries (another PBO's transaction: 403)" })
  @IsOptional()
  @IsString()
  @Matches(TRAN_ID_PATTERN, { message: '$property must look like tran_<22 characters>' })
  tranId?: string;

  @ApiPropertyOptional({ enum: DELIVERY_STATES, description: 'only deliveries in this state (FAILED: what an operator looks at)' })
  @IsOptional()
  @IsIn(DELIVERY_STATES)
  state?: DeliveryState;

  @ApiPropertyOptional({ description: 'a nextCursor from an earlier page: the deliveries after it (older); omitted: the newest' })
  @IsOptional()
  @IsUUID('all', { message: '$property is not a cursor this API issued' })
  cursor?: string;

  @ApiPropertyOptional({ default: DEFAULT_DELIVERY_PAGE_SIZE, minimum: 1, maximum: MAX_DELIVERY_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_DELIVERY_PAGE_SIZE)
  pageSize?: number;
}

// ---- responses --------------------------------------------------------------------------------

export class WebhookSecretDto {
  @ApiProperty({
    example: 'whsec_6f1c2a9e0b4d4c8e9a7b3f2d1c0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e',
    description:
      'the HMAC-SHA256 key of Softpos-Signature, used exactly as shown (prefix included): v1 = hex(HMAC-SHA256(secret, "<t>.<body>")), with t from the header and body the exact bytes received',
  })
  secret: string;

  @ApiProperty({
    example: '2025-01-31T08:15:30.123000+00:00',
    description: 'when this secret was made (first use or rotation); attempts after it are signed with it',
  })
  createdAt: string;
}

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid', description: 'also sent as the Softpos-Delivery-Id header, the same on every attempt' }) deliveryId: string;
  @ApiProperty({ example: 'tran_2b7Qx9LmN4pR8sT1vW3yZa' }) tranId: string;
  @ApiProperty({ description: "the transaction's version this delivery carries (Softpos-Transaction-Version); a newer one supersedes it" }) version: number;
  @ApiProperty({ example: 'APPROVED' }) tranStatus: string;
  @ApiProperty({ example: 'https://merchant.example/hooks/softpos' }) callbackUrl: string;
  @ApiProperty({
    enum: DELIVERY_STATES,
    description:
      'PENDING: attempts go on; DELIVERED: answered 2xx; FAILED: refused destination, or no 2xx within WEBHOOK_GIVE_UP_MS of the first attempt; SUPERSEDED: a newer version was queued before this one was delivered',
  })
  state: DeliveryState;
  @ApiProperty({ description: 'attempts started' }) attempts: number;
  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status of the last answer; null when none came' }) lastStatus: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'HTTP 503 (receiver error)',
    description: "the last status code with our category of it, or the failure; the receiver's reason phrase and body are never kept",
  })
  lastError: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'when the next attempt is due; null once final' }) nextAttemptAt: string | null;
  @ApiProperty({ type: String, nullable: true }) firstAttemptAt: string | null;
  @ApiProperty({ type: String, nullable: true }) lastAttemptAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'when it became DELIVERED, FAILED or SUPERSEDED' }) finishedAt: string | null;
  @ApiProperty({ example: '2025-01-31T08:15:30.123000+00:00' }) createdAt: string;
}

export class WebhookDeliveryPageDto {
  @ApiProperty() hasNext: boolean;
  @ApiProperty() pageSize: number;
  @ApiProperty({ type: String, nullable: true, description: 'the cursor of the next (older) page; null at the end' }) nextCursor: string | null;
  @ApiProperty({ type: [WebhookDeliveryDto], description: 'newest first' }) data: WebhookDeliveryDto[];
}
