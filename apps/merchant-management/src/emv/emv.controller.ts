import { ApiEnvelope, ApiEnvelopeErrors, ApiEnvelopePage, Envelope, GroupId, ok, Page, PboApi } from '@app/common';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { numericId } from '../shared/ownership';
import { EmvConfigDto, EmvListQueryDto, EmvWriteDto, IdDto, toEmvConfigDto } from './dto/emv.dto';
import { EmvService, parseParamsString } from './emv.service';

@ApiTags('emv (v1)')
@PboApi()
@ApiEnvelopeErrors(400, 403, 404, 409)
@Controller('api/openapi/v1/emv')
export class EmvController {
  constructor(private readonly emvs: EmvService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an EMV config' })
  @ApiEnvelope(IdDto)
  async create(@GroupId() groupId: string, @Body() body: EmvWriteDto): Promise<Envelope<IdDto>> {
    const id = await this.emvs.create(groupId, { ...body, params: parseParamsString(body.params) });
    return ok({ id });
  }

  @Get()
  @ApiOperation({ summary: 'List EMV configs (pageSize -1 returns all)' })
  @ApiEnvelopePage(EmvConfigDto)
  async list(@GroupId() groupId: string, @Query() query: EmvListQueryDto): Promise<Envelope<Page<EmvConfigDto>>> {
    const page = await this.emvs.list(groupId, { emvName: query.emvName, paymentMethod: query.paymentMethod }, query.toPageRequest(20));
    return ok({ ...page, records: page.records.map(toEmvConfigDto) });
  }

  @Get(':emvId')
  @ApiOperation({ summary: 'One EMV config' })
  @ApiEnvelope(EmvConfigDto)
  async get(@GroupId() groupId: string, @Param('emvId') emvId: string): Promise<Envelope<EmvConfigDto>> {
    return ok(toEmvConfigDto(await this.emvs.get(groupId, numericId(emvId, 'EMV config'))));
  }

  @Put(':emvId')
  @ApiOperation({ summary: 'Replace an EMV config (same body as create)' })
  @ApiEnvelope(IdDto)
  async replace(@GroupId() groupId: string, @Param('emvId') emvId: string, @Body() body: EmvWriteDto): Promise<Envelope<IdDto>> {
    const id = numericId(emvId, 'EMV config');
    await this.emvs.replace(groupId, id, { ...body, params: parseParamsString(body.params) });
    return ok({ id });
  }

  @Delete(':emvId')
  @ApiOperation({ summary: 'Delete an EMV config; refused (10000) while an acquirer profile or payment config uses it' })
  @ApiEnvelope()
  async delete(@GroupId() groupId: string, @Param('emvId') emvId: string): Promise<Envelope<never>> {
    await this.emvs.delete(groupId, numericId(emvId, 'EMV config'));
    return ok();
  }
}
