import { ApiProblem, GroupId } from '@app/common';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { GatewayApi } from '../shared/gateway-api';
import { GATEWAY_ROUTE_PREFIX } from '../shared/namespace';
import { ProfileDto, ProfileListQueryDto, ProfilePageDto, ProfileRequestDto, ProfileStatusRequestDto, ProfileWithAcptDto } from './dto/profile.dto';
import { ProfileService } from './profile.service';
import { ProfileSignOnDto } from '../sign-on/profile-sign-on.dto';
import { SignOnService } from '../sign-on/sign-on.service';

@ApiTags('gateway profiles (v1)')
@GatewayApi()
@ApiProblem({ status: 400, description: 'invalid input; detail names the field' })
@Controller(`${GATEWAY_ROUTE_PREFIX}/profiles`)
export class ProfileController {
  constructor(
    private readonly profiles: ProfileService,
    private readonly signOns: SignOnService,
  ) {}

  @Get()
  @ApiOperation({ summary: "Cursor-paged list of the PBO's profiles, oldest first (no acceptances)" })
  @ApiOkResponse({ type: ProfilePageDto })
  list(@GroupId() groupId: string, @Query() query: ProfileListQueryDto): Promise<ProfilePageDto> {
    return this.profiles.list(groupId, query);
  }

  @Get('providerReference/:providerReference')
  @ApiOperation({ summary: "A profile by its providerReference, among the PBO's own" })
  @ApiOkResponse({ type: ProfileWithAcptDto })
  getByProviderReference(@GroupId() groupId: string, @Param('providerReference') providerReference: string): Promise<ProfileWithAcptDto> {
    return this.profiles.getByProviderReference(groupId, providerReference);
  }

  @Get(':profileId')
  @ApiOperation({ summary: 'One profile with its acceptances' })
  @ApiOkResponse({ type: ProfileWithAcptDto })
  @ApiProblem({ status: 403, description: 'the profile belongs to another PBO' })
  get(@GroupId() groupId: string, @Param('profileId') profileId: string): Promise<ProfileWithAcptDto> {
    return this.profiles.get(groupId, profileId);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a profile; acceptances with a known acptId are updated and bound, the others created' })
  @ApiCreatedResponse({ type: ProfileWithAcptDto, headers: { Location: { description: '/profiles/<profileId>', schema: { type: 'string' } } } })
  @ApiProblem({ status: 403, description: 'an acptId belongs to another PBO' })
  @ApiProblem({ status: 409, description: 'providerReference already used by another profile of the PBO, or an acceptance names a MID/TID at a host that another PBO owns (detail names them)' })
  async create(@GroupId() groupId: string, @Body() body: ProfileRequestDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<ProfileWithAcptDto> {
    const profile = await this.profiles.create(groupId, body);
    void reply.header('location', `/profiles/${profile.profileId}`);
    return profile;
  }

  @Put(':profileId')
  @ApiOperation({ summary: 'Replace every field; the listed acceptances are upserted and bound, the others unbound ([] unbinds all)' })
  @ApiOkResponse({ type: ProfileWithAcptDto })
  @ApiProblem({ status: 403, description: 'the profile or an acptId belongs to another PBO' })
  @ApiProblem({
    status: 409,
    description:
      'providerReference already used by another profile of the PBO, an acceptance names a MID/TID at a host that another PBO owns (detail names them), or the profile is retired (its device is no longer in use in merchant-management)',
  })
  replace(@GroupId() groupId: string, @Param('profileId') profileId: string, @Body() body: ProfileRequestDto): Promise<ProfileWithAcptDto> {
    return this.profiles.replace(groupId, profileId, body);
  }

  @Post(':profileId/signOn')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign every bound acceptance on to its host (working keys exchanged); one result per acceptance',
    description: 'Each acceptance answers for itself: a host that is down gives its own resultReason without failing the others.',
  })
  @ApiOkResponse({ type: ProfileSignOnDto })
  @ApiProblem({ status: 403, description: 'the profile belongs to another PBO' })
  signOn(@GroupId() groupId: string, @Param('profileId') profileId: string): Promise<ProfileSignOnDto> {
    return this.signOns.signOn(groupId, profileId);
  }

  @Patch(':profileId/status')
  @ApiOperation({ summary: 'Activate or disable a profile' })
  @ApiOkResponse({ type: ProfileDto })
  @ApiProblem({ status: 403, description: 'the profile belongs to another PBO' })
  @ApiProblem({ status: 409, description: 'ACTIVE asked for a retired profile (its device is no longer in use in merchant-management); DISABLED is kept for when the device is activated again' })
  setStatus(@GroupId() groupId: string, @Param('profileId') profileId: string, @Body() body: ProfileStatusRequestDto): Promise<ProfileDto> {
    return this.profiles.setStatus(groupId, profileId, body.status);
  }
}
