import { ApiEnvelope, ApiEnvelopeErrors, ApiEnvelopePage, Envelope, EnvelopeDto, GroupId, ok, Page, PboApi } from '@app/common';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { deviceIdentity, DeviceView, toProfileSyncDto } from '../device/device.view';
import { profileSyncOf } from '../device/device';
import { ProfileSyncDeviceDto, ProfileSyncListQueryDto, ProfileSyncReplayDto, ProfileSyncReplayResultDto } from './dto/profile-sync.dto';
import { ProfileSyncService } from './profile-sync.service';

/**
 * The operator's view of profile pushes the gateway has not applied (docs/decisions.md, "Profile
 * sync state"), under the PBO's token: list them and replay one or all. Only the PBO's own
 * devices are listed or replayed; another PBO's device answers as an unknown one (14000).
 */
@ApiTags('profile sync (v1)')
@PboApi()
@ApiEnvelopeErrors(400)
@Controller('api/openapi/v1/profileSync')
export class ProfileSyncController {
  constructor(private readonly sync: ProfileSyncService) {}

  @Get()
  @ApiOperation({ summary: "The PBO's devices whose gateway profile is not APPLIED: PENDING (awaiting the gateway) or REJECTED (refused, with the reason); pageSize -1 returns all" })
  @ApiEnvelopePage(ProfileSyncDeviceDto)
  async list(@GroupId() groupId: string, @Query() query: ProfileSyncListQueryDto): Promise<Envelope<Page<ProfileSyncDeviceDto>>> {
    const page = await this.sync.list(groupId, { state: query.state, mchId: query.mchId }, query.toPageRequest(20));
    return ok({ ...page, records: page.records.map(toProfileSyncDeviceDto) });
  }

  @Post('replay')
  @HttpCode(200)
  @ApiOperation({ summary: 'Push the current profile of every not-APPLIED device of the PBO (or those the filter names) to the gateway again' })
  @ApiEnvelope(ProfileSyncReplayResultDto)
  async replayAll(@GroupId() groupId: string, @Body() body: ProfileSyncReplayDto): Promise<Envelope<ProfileSyncReplayResultDto>> {
    return ok({ replayed: await this.sync.replayAll(groupId, { state: body.state, mchId: body.mchId }) });
  }

  @Post(':deviceId/replay')
  @HttpCode(200)
  @ApiOperation({ summary: "Push one device's current profile to the gateway again (device id, CD- code id or bare code); it is PENDING with its next version" })
  @ApiResponse({ status: 404, description: "code 14000: no such device of the PBO (another PBO's answers the same)", type: EnvelopeDto })
  @ApiResponse({ status: 409, description: 'code 10000: the device has no gateway profile (no acquirer matches it)', type: EnvelopeDto })
  @ApiResponse({ status: 429, description: "code 16000: too many lookups of activation codes that are not the PBO's own", type: EnvelopeDto })
  @ApiEnvelope(ProfileSyncDeviceDto)
  async replayOne(@GroupId() groupId: string, @Param('deviceId') deviceId: string): Promise<Envelope<ProfileSyncDeviceDto>> {
    return ok(toProfileSyncDeviceDto(await this.sync.replayOne(groupId, deviceId)));
  }
}

/** A device as the operator's list shows it: who it is, and where its gateway profile stands. */
function toProfileSyncDeviceDto(view: DeviceView): ProfileSyncDeviceDto {
  const sync = toProfileSyncDto(profileSyncOf(view.device));
  if (!view.device.profileId || !sync) throw new Error(`device ${view.device.uuid} has no gateway profile to show`);
  return { ...deviceIdentity(view), profileId: view.device.profileId, profileSync: sync };
}
