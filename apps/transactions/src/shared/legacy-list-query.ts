import { PageQueryDto } from '@app/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { LegacyPageSize } from './legacy';
import { IsTimeBound, parseTimeBound } from './time-range';

/**
 * The query every legacy list of this context shares (spec 2): pageSize (default 10, -1 all),
 * pageNumber, and the creation range createdStart / createdEnd.
 */
export class LegacyListQueryDto extends PageQueryDto {
  @LegacyPageSize()
  override pageSize?: number = undefined;

  @ApiPropertyOptional({ description: 'created from (yyyy-mm-dd: from the start of that UTC day; or an ISO 8601 timestamp)', example: '2026-01-01' })
  @IsOptional()
  @IsTimeBound()
  createdStart?: string;

  @ApiPropertyOptional({
    description: 'created up to (yyyy-mm-dd: through the end of that UTC day; or an ISO 8601 timestamp, included)',
    example: '2026-01-31',
  })
  @IsOptional()
  @IsTimeBound()
  createdEnd?: string;

  /** The creation range asked for, as instants (the validator has read both bounds already). */
  createdRange(): { createdFrom?: Date; createdUntil?: Date } {
    return {
      createdFrom: this.createdStart === undefined ? undefined : (parseTimeBound(this.createdStart, 'start') ?? undefined),
      createdUntil: this.createdEnd === undefined ? undefined : (parseTimeBound(this.createdEnd, 'end') ?? undefined),
    };
  }
}
