import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';

/** Largest explicit page; `-1` (everything on one page) is the way to ask for more. */
export const MAX_PAGE_SIZE = 1000;

/** The page a list endpoint returns: `{total, current, hasNext, records}`. */
export interface Page<T> {
  total: number;
  current: number;
  hasNext: boolean;
  records: T[];
}

/** A resolved page request: `limit` null means every record (pageSize -1). */
export interface PageRequest {
  pageNumber: number;
  pageSize: number;
  offset: number;
  limit: number | null;
}

@ValidatorConstraint({ name: 'pageSize' })
class PageSizeConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return value === -1 || (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_PAGE_SIZE);
  }
  defaultMessage(): string {
    return `pageSize must be -1 (all) or an integer from 1 to ${MAX_PAGE_SIZE}`;
  }
}

/** Query parameters of a paged list (default page size 20, as in the openapi v1 document). */
export class PageQueryDto {
  @ApiPropertyOptional({ default: 1, minimum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  pageNumber?: number;

  @ApiPropertyOptional({ default: 20, description: '-1 returns every record on one page' })
  @IsOptional()
  @Type(() => Number)
  @Validate(PageSizeConstraint)
  pageSize?: number;

  /** Resolves defaults; `defaultSize` differs between v1 (20) and the legacy lists (10). */
  toPageRequest(defaultSize = 20): PageRequest {
    return pageRequest(this.pageNumber, this.pageSize, defaultSize);
  }
}

export function pageRequest(pageNumber: number | undefined, pageSize: number | undefined, defaultSize = 20): PageRequest {
  const number = pageNumber ?? 1;
  const size = pageSize ?? defaultSize;
  if (size === -1) return { pageNumber: 1, pageSize: -1, offset: 0, limit: null };
  return { pageNumber: number, pageSize: size, offset: (number - 1) * size, limit: size };
}

/** Builds the page body from one page of records and the total count. */
export function toPage<T>(request: PageRequest, records: T[], total: number): Page<T> {
  return {
    total,
    current: request.pageNumber,
    hasNext: request.limit !== null && request.offset + records.length < total,
    records,
  };
}

/** OpenAPI shape of a page (records typed per endpoint with `ApiPage`). */
export class PageDto {
  @ApiProperty({ type: 'integer', minimum: 0 }) total: number;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'page number' }) current: number;
  @ApiProperty() hasNext: boolean;
}
