import { DomainError, IsOptionalNonNull } from '@app/common';
import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

/**
 * `groupId` of a legacy write body. Legacy clients send it; the group still comes only from the
 * token, so the field is accepted but must name the token's group ({@link checkBodyGroup}).
 */
export const LegacyGroupIdField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ description: "accepted for legacy clients; must equal the token's group (13000 otherwise)", maxLength: 64 }),
    IsOptionalNonNull(),
    IsString(),
    MaxLength(64),
  );

/** 13000 (owner info invalid) when a legacy body names a group other than the token's. */
export function checkBodyGroup(bodyGroupId: string | undefined, tokenGroupId: string): void {
  if (bodyGroupId !== undefined && bodyGroupId !== tokenGroupId) {
    throw DomainError.ownerInvalid("owner info invalid: groupId in the body is not the token's group");
  }
}

/** Documents the legacy page size default (10, docs/decisions.md, "Pagination") on a list query that overrides `pageSize`. */
export const LegacyPageSize = (): PropertyDecorator =>
  ApiPropertyOptional({ default: 10, description: 'legacy default 10; -1 returns every record on one page' });

/** Legacy lists default to 10 records a page (docs/decisions.md, "Pagination"). */
export const LEGACY_PAGE_SIZE = 10;
