// class-transformer's @Type reads design-time metadata: the contract must load without Nest having loaded this first.
import 'reflect-metadata';
import { IsBoolean, IsNotEmpty, IsString, MaxLength } from 'class-validator';

/**
 * `mms.group.verify.v1`: does this group (PBO) exist? Asked by every context that verifies bearer
 * or device tokens, for the group a validly signed token names: a token of a group that does not
 * exist, or no longer does, is refused like a bad token. merchant-management owns the PBOs and
 * answers from its table; callers cache the answer briefly (docs/decisions.md, "Tokens of groups
 * that do not exist").
 */
export class GroupVerifyRequestV1 {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  groupId: string;
}

export class GroupVerifyReplyV1 {
  @IsBoolean()
  exists: boolean;
}
