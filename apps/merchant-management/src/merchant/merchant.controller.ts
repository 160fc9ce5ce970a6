import { ApiEnvelope, ApiEnvelopeErrors, ApiEnvelopePage, Envelope, EnvelopeDto, GroupId, ok, Page, PboApi } from '@app/common';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { MerchantDto, MerchantListQueryDto, MerchantWriteDto, toMerchantDto } from './dto/merchant.dto';
import { MerchantService } from './merchant.service';

@ApiTags('merchants (v1)')
@PboApi()
@ApiEnvelopeErrors(404)
@ApiResponse({ status: 400, description: 'code 10000: invalid input, msg names the field', type: EnvelopeDto })
@Controller('api/openapi/v1/mchInfo')
export class MerchantController {
  constructor(private readonly merchants: MerchantService) {}

  @Get()
  @ApiOperation({ summary: 'List merchants (uuid, mchId, activationCode exact; mchName partial; pageSize -1 returns all)' })
  @ApiEnvelopePage(MerchantDto)
  async list(@GroupId() groupId: string, @Query() query: MerchantListQueryDto): Promise<Envelope<Page<MerchantDto>>> {
    const page = await this.merchants.list(groupId, { uuid: query.uuid, mchId: query.mchId, mchName: query.mchName, activationCode: query.activationCode }, query.toPageRequest(20));
    return ok({ ...page, records: page.records.map(toMerchantDto) });
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: "Create a merchant; binds the PBO's default card acquirer profile when one exists" })
  @ApiEnvelope(MerchantDto)
  async create(@GroupId() groupId: string, @Body() body: MerchantWriteDto): Promise<Envelope<MerchantDto>> {
    return ok(toMerchantDto(await this.merchants.create(groupId, groupId, body)));
  }

  @Get(':mchId')
  @ApiOperation({ summary: 'One merchant' })
  @ApiEnvelope(MerchantDto)
  @ApiResponse({ status: 403, description: 'code 13000: the merchant belongs to another PBO', type: EnvelopeDto })
  @ApiResponse({ status: 404, description: 'code 14000: no such merchant', type: EnvelopeDto })
  async get(@GroupId() groupId: string, @Param('mchId') mchId: string): Promise<Envelope<MerchantDto>> {
    return ok(toMerchantDto(await this.merchants.get(groupId, mchId)));
  }

  @Put(':mchId')
  @ApiOperation({ summary: 'Replace the profile fields (not the payment config)' })
  @ApiEnvelope(MerchantDto)
  async replace(@GroupId() groupId: string, @Param('mchId') mchId: string, @Body() body: MerchantWriteDto): Promise<Envelope<MerchantDto>> {
    return ok(toMerchantDto(await this.merchants.replace(groupId, mchId, body)));
  }

  @Delete(':mchId')
  @ApiOperation({ summary: 'Delete a merchant; refused (10000, HTTP 409) while it has a payment config or activation code' })
  @ApiResponse({ status: 409, description: 'code 10000: the merchant still has a payment config', type: EnvelopeDto })
  @ApiEnvelope()
  async delete(@GroupId() groupId: string, @Param('mchId') mchId: string): Promise<Envelope<never>> {
    await this.merchants.delete(groupId, mchId);
    return ok();
  }
}
