import { ApiEnvelope, ApiEnvelopeErrors, ApiEnvelopePage, Envelope, EnvelopeDto, GroupId, ok, Page, PboApi } from '@app/common';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IdDto } from '../../emv/dto/emv.dto';
import { checkBodyGroup, LEGACY_PAGE_SIZE } from '../../shared/legacy';
import { numericId } from '../../shared/ownership';
import { AcquirerService } from '../acquirer.service';
import { parseEmvList, parseMethodList } from '../method-lists';
import {
  boundedConnExtraParams,
  LegacyAcquirerCreateDto,
  LegacyAcquirerListQueryDto,
  LegacyAcquirerProfileDto,
  LegacyAcquirerUpdateDto,
  toLegacyAcquirerProfile,
} from './dto/acquirer-v2.dto';

/** Legacy acquirer profiles (docs/decisions.md, "Legacy /api/v2"), over the same service as `/api/openapi/v1/acquirer`. */
@ApiTags('acquirer profiles (legacy v2)')
@PboApi()
@ApiEnvelopeErrors(404)
@ApiResponse({ status: 400, description: 'code 10000: invalid input, msg names the field', type: EnvelopeDto })
@ApiResponse({
  status: 403,
  description: "code 13000: the profile (or an EMV config it lists) belongs to another PBO, or groupId is not the token's",
  type: EnvelopeDto,
})
@Controller('api/v2/acquirer')
export class AcquirerV2Controller {
  constructor(private readonly acquirers: AcquirerService) {}

  @Get()
  @ApiOperation({ summary: 'List acquirer profiles (profileName partial; pageSize default 10, -1 returns all)' })
  @ApiEnvelopePage(LegacyAcquirerProfileDto)
  async list(@GroupId() groupId: string, @Query() query: LegacyAcquirerListQueryDto): Promise<Envelope<Page<LegacyAcquirerProfileDto>>> {
    const page = await this.acquirers.list(groupId, query.profileName, query.toPageRequest(LEGACY_PAGE_SIZE));
    return ok({ ...page, records: page.records.map(toLegacyAcquirerProfile) });
  }

  @Post()
  @ApiResponse({ status: 503, description: 'code 15000: the host connector did not say whether it sends to connUrl; nothing was saved', type: EnvelopeDto })
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an acquirer profile (emvList and methodList as objects)' })
  @ApiEnvelope(IdDto)
  @ApiResponse({ status: 409, description: 'code 10000: profileName already exists', type: EnvelopeDto })
  async create(@GroupId() groupId: string, @Body() body: LegacyAcquirerCreateDto): Promise<Envelope<IdDto>> {
    const { groupId: bodyGroupId, methodList, emvList, connExtraParams, ...fields } = body;
    checkBodyGroup(bodyGroupId, groupId);
    const id = await this.acquirers.create(groupId, {
      ...fields,
      acqType: fields.acqType ?? 'card',
      connExtraParams: boundedConnExtraParams(connExtraParams),
      methodList: parseMethodList(methodList),
      emvList: emvList === undefined ? undefined : parseEmvList(emvList),
      createdBy: groupId,
    });
    return ok({ id });
  }

  @Put(':profileId')
  @ApiResponse({ status: 503, description: 'code 15000: the host connector did not say whether it sends to connUrl; nothing was saved', type: EnvelopeDto })
  @ApiOperation({ summary: 'Change the included fields; currency and acqType are immutable' })
  @ApiEnvelope(IdDto)
  async update(@GroupId() groupId: string, @Param('profileId') profileId: string, @Body() body: LegacyAcquirerUpdateDto): Promise<Envelope<IdDto>> {
    const { groupId: bodyGroupId, methodList, emvList, connExtraParams, ...fields } = body;
    checkBodyGroup(bodyGroupId, groupId);
    const id = numericId(profileId, 'acquirer profile');
    await this.acquirers.update(groupId, id, {
      ...fields,
      connExtraParams: boundedConnExtraParams(connExtraParams),
      methodList: methodList === undefined ? undefined : parseMethodList(methodList),
      emvList: emvList === undefined ? undefined : parseEmvList(emvList),
    });
    return ok({ id });
  }

  @Delete(':profileId')
  @ApiOperation({ summary: 'Delete an acquirer profile; refused (10000, HTTP 409) while a merchant binds it' })
  @ApiEnvelope(IdDto)
  @ApiResponse({ status: 409, description: 'code 10000: the acquirer is used by a merchant', type: EnvelopeDto })
  async delete(@GroupId() groupId: string, @Param('profileId') profileId: string): Promise<Envelope<IdDto>> {
    const id = numericId(profileId, 'acquirer profile');
    await this.acquirers.delete(groupId, id);
    return ok({ id });
  }
}
