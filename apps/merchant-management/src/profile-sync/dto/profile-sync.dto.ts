import { PageQueryDto } from '@app/common';
import { ApiProperty, ApiPropertyOptional, OmitType, PickType } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { DeviceDto, ProfileSyncDto } from '../../device/dto/device.dto';

/** The sync states an operator lists and replays: every one but APPLIED. */
export const UNSYNCED_STATES = ['PENDING', 'REJECTED'] as const;

/** `GET /api/openapi/v1/profileSync`: which not-APPLIED devices (one state or both, one merchant or all of the PBO's), and the page. */
export class ProfileSyncListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: UNSYNCED_STATES, description: 'only PENDING or only REJECTED devices; both when omitted' })
  @IsOptional()
  @IsIn(UNSYNCED_STATES, { message: '$property must be PENDING or REJECTED' })
  state?: (typeof UNSYNCED_STATES)[number];

  @ApiPropertyOptional({ description: "only this merchant's devices" })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  mchId?: string;
}

/** `POST /api/openapi/v1/profileSync/replay`: the list's filter (an empty body replays every not-APPLIED device of the PBO). */
export class ProfileSyncReplayDto extends OmitType(ProfileSyncListQueryDto, ['pageNumber', 'pageSize'] as const) {}

/** A device whose gateway profile is not APPLIED (or was just replayed): the device's identity as in the device list, its profile and where it stands. */
export class ProfileSyncDeviceDto extends PickType(DeviceDto, ['deviceId', 'uuid', 'mchId', 'groupId', 'deviceType', 'deviceStatus', 'deviceUpdate'] as const) {
  @ApiProperty({ description: 'the gateway profile id (prof_…)' }) profileId: string;
  @ApiProperty({ type: ProfileSyncDto }) profileSync: ProfileSyncDto;
}

/** What a replay of every matching device answers. */
export class ProfileSyncReplayResultDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'devices whose profile was pushed again (each now PENDING with its next version)' })
  replayed: number;
}
