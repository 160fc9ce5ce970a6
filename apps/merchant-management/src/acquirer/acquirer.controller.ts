import { ApiEnvelope, ApiEnvelopeErrors, ApiEnvelopePage, Envelope, EnvelopeDto, GroupId, ok, Page, PboApi } from '@app/common';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IdDto } from '../emv/dto/emv.dto';
import { numericId } from '../shared/ownership';
import { AcquirerService, decodeConnExtraParams } from './acquirer.service';
import { AcquirerCreateDto, AcquirerListQueryDto, AcquirerProfileDto, AcquirerUpdateDto, toAcquirerProfileDto } from './dto/acquirer.dto';
import { parseEmvList, parseMethodList } from './method-lists';

@ApiTags('acquirer profiles (v1)')
@PboApi()
@ApiEnvelopeErrors(400, 403, 404)
@Controller('api/openapi/v1/acquirer')
export class AcquirerController {
  constructor(private readonly acquirers: AcquirerService) {}

  @Get()
  @ApiOperation({ summary: 'List acquirer profiles (profileName partial; pageSize -1 returns all)' })
  @ApiEnvelopePage(AcquirerProfileDto)
  async list(@GroupId() groupId: string, @Query() query: AcquirerListQueryDto): Promise<Envelope<Page<AcquirerProfileDto>>> {
    const page = await this.acquirers.list(groupId, query.profileName, query.toPageRequest(20));
    return ok({ ...page, records: page.records.map(toAcquirerProfileDto) });
  }

  @Post()
  @ApiResponse({ status: 503, description: 'code 15000: the host connector did not say whether it sends to connUrl; nothing was saved', type: EnvelopeDto })
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an acquirer profile' })
  @ApiEnvelope(IdDto)
  @ApiResponse({ status: 409, description: 'code 10000: profileName already exists', type: EnvelopeDto })
  async create(@GroupId() groupId: string, @Body() body: AcquirerCreateDto): Promise<Envelope<IdDto>> {
    const id = await this.acquirers.create(groupId, {
      ...body,
      acqType: body.acqType ?? 'card',
      connExtraParams: decodeConnExtraParams(body.connExtraParams),
      methodList: parseMethodList(body.methodList),
      emvList: body.emvList === undefined ? undefined : parseEmvList(body.emvList),
      createdBy: groupId,
    });
    return ok({ id });
  }

  @Get(':profileId')
  @ApiOperation({ summary: 'One acquirer profile' })
  @ApiEnvelope(AcquirerProfileDto)
  async get(@GroupId() groupId: string, @Param('profileId') profileId: string): Promise<Envelope<AcquirerProfileDto>> {
    return ok(toAcquirerProfileDto(await this.acquirers.get(groupId, numericId(profileId, 'acquirer profile'))));
  }

  @Put(':profileId')
  @ApiResponse({ status: 503, description: 'code 15000: the host connector did not say whether it sends to connUrl; nothing was saved', type: EnvelopeDto })
  @ApiOperation({ summary: 'Change the included fields; currency and acqType are immutable' })
  @ApiEnvelope()
  async update(@GroupId() groupId: string, @Param('profileId') profileId: string, @Body() body: AcquirerUpdateDto): Promise<Envelope<never>> {
    await this.acquirers.update(groupId, numericId(profileId, 'acquirer profile'), {
      ...body,
      connExtraParams: decodeConnExtraParams(body.connExtraParams),
      methodList: body.methodList === undefined ? undefined : parseMethodList(body.methodList),
      emvList: body.emvList === undefined ? undefined : parseEmvList(body.emvList),
    });
    return ok();
  }

  @Delete(':profileId')
  @ApiOperation({ summary: 'Delete an acquirer profile; refused (10000) while a merchant binds it' })
  @ApiResponse({ status: 409, description: 'code 10000: the acquirer is used by a merchant', type: EnvelopeDto })
  @ApiEnvelope()
  async delete(@GroupId() groupId: string, @Param('profileId') profileId: string): Promise<Envelope<never>> {
    await this.acquirers.delete(groupId, numericId(profileId, 'acquirer profile'));
    return ok();
  }
}
