import { ApiEnvelope, ApiEnvelopeErrors, ApiEnvelopePage, Envelope, EnvelopeDto, GroupId, ok, Page, PboApi } from '@app/common';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { checkBodyGroup, LEGACY_PAGE_SIZE } from '../../shared/legacy';
import { numericId } from '../../shared/ownership';
import { IdDto } from '../dto/emv.dto';
import { EmvConfigCommand, EmvService } from '../emv.service';
import { LegacyEmvConfigDto, LegacyEmvListQueryDto, LegacyEmvWriteDto, toLegacyEmvConfig } from './dto/emv-v2.dto';

function toCommand(body: LegacyEmvWriteDto): EmvConfigCommand {
  return { emvName: body.emvName, paymentMethod: body.paymentMethod, params: body.params };
}

/** Legacy EMV configs (docs/decisions.md, "Legacy /api/v2"), over the same service as `/api/openapi/v1/emv`. */
@ApiTags('emv (legacy v2)')
@PboApi()
@ApiEnvelopeErrors(404, 409)
@ApiResponse({ status: 400, description: 'code 10000: invalid input, msg names the field', type: EnvelopeDto })
@ApiResponse({ status: 403, description: "code 13000: the EMV config belongs to another PBO, or groupId is not the token's", type: EnvelopeDto })
@Controller('api/v2/emv')
export class EmvV2Controller {
  constructor(private readonly emvs: EmvService) {}

  @Get()
  @ApiOperation({ summary: 'List EMV configs (pageSize default 10, -1 returns all)' })
  @ApiEnvelopePage(LegacyEmvConfigDto)
  async list(@GroupId() groupId: string, @Query() query: LegacyEmvListQueryDto): Promise<Envelope<Page<LegacyEmvConfigDto>>> {
    const page = await this.emvs.list(groupId, { emvName: query.emvName, paymentMethod: query.paymentMethod }, query.toPageRequest(LEGACY_PAGE_SIZE));
    return ok({ ...page, records: page.records.map(toLegacyEmvConfig) });
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an EMV config (params as an object)' })
  @ApiEnvelope(IdDto)
  async create(@GroupId() groupId: string, @Body() body: LegacyEmvWriteDto): Promise<Envelope<IdDto>> {
    checkBodyGroup(body.groupId, groupId);
    return ok({ id: await this.emvs.create(groupId, toCommand(body)) });
  }

  @Put(':emvId')
  @ApiOperation({ summary: 'Replace an EMV config (same body as create)' })
  @ApiEnvelope(IdDto)
  async replace(@GroupId() groupId: string, @Param('emvId') emvId: string, @Body() body: LegacyEmvWriteDto): Promise<Envelope<IdDto>> {
    checkBodyGroup(body.groupId, groupId);
    const id = numericId(emvId, 'EMV config');
    // The legacy body has no currency: the one a v1 client may have set stays.
    await this.emvs.replace(groupId, id, toCommand(body));
    return ok({ id });
  }

  @Delete(':emvId')
  @ApiOperation({ summary: 'Delete an EMV config; refused (10000, HTTP 409) while an acquirer profile or payment config uses it' })
  @ApiEnvelope()
  async delete(@GroupId() groupId: string, @Param('emvId') emvId: string): Promise<Envelope<never>> {
    await this.emvs.delete(groupId, numericId(emvId, 'EMV config'));
    return ok();
  }
}
