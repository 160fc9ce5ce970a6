import { ApiEnvelope, ApiEnvelopeErrors, ApiEnvelopePage, Envelope, EnvelopeDto, GroupId, ok, Page, PboApi } from '@app/common';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { checkBodyGroup, LEGACY_PAGE_SIZE } from '../../shared/legacy';
import { MerchantService } from '../merchant.service';
import { LegacyMerchantCreateDto, LegacyMerchantDto, LegacyMerchantListQueryDto, LegacyMerchantUpdateDto, toLegacyMerchant } from './dto/merchant-v2.dto';

/** Legacy merchants (docs/decisions.md, "Legacy /api/v2"), over the same service as `/api/openapi/v1/mchInfo`. */
@ApiTags('merchants (legacy v2)')
@PboApi()
@ApiEnvelopeErrors(404)
@ApiResponse({ status: 400, description: 'code 10000: invalid input, msg names the field', type: EnvelopeDto })
@ApiResponse({ status: 403, description: "code 13000: the merchant belongs to another PBO, or groupId is not the token's", type: EnvelopeDto })
@Controller('api/v2/mchInfo')
export class MerchantV2Controller {
  constructor(private readonly merchants: MerchantService) {}

  @Get()
  @ApiOperation({ summary: 'List merchants (mchId exact, mchName partial, both optional; pageSize default 10, -1 returns all)' })
  @ApiEnvelopePage(LegacyMerchantDto)
  async list(@GroupId() groupId: string, @Query() query: LegacyMerchantListQueryDto): Promise<Envelope<Page<LegacyMerchantDto>>> {
    const page = await this.merchants.listWithBindings(groupId, { mchId: query.mchId, mchName: query.mchName }, query.toPageRequest(LEGACY_PAGE_SIZE));
    return ok({ ...page, records: page.records.map(toLegacyMerchant) });
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: "Create a merchant; binds the PBO's default card acquirer profile when one exists" })
  @ApiEnvelope(LegacyMerchantDto)
  async create(@GroupId() groupId: string, @Body() body: LegacyMerchantCreateDto): Promise<Envelope<LegacyMerchantDto>> {
    const { groupId: bodyGroupId, ...fields } = body;
    checkBodyGroup(bodyGroupId, groupId);
    const created = await this.merchants.create(groupId, groupId, { ...fields, currency: await this.merchants.currencyOrDefault(groupId, fields) });
    return ok(toLegacyMerchant(await this.merchants.getWithBindings(groupId, created.merchant.mchId)));
  }

  @Get(':mchId')
  @ApiOperation({ summary: 'One merchant with its acquirer bindings' })
  @ApiEnvelope(LegacyMerchantDto)
  @ApiResponse({ status: 404, description: 'code 14000: no such merchant', type: EnvelopeDto })
  async get(@GroupId() groupId: string, @Param('mchId') mchId: string): Promise<Envelope<LegacyMerchantDto>> {
    return ok(toLegacyMerchant(await this.merchants.getWithBindings(groupId, mchId)));
  }

  @Put(':mchId')
  @ApiOperation({ summary: 'Change the profile fields sent (omitted fields stay, null clears an optional one)' })
  @ApiEnvelope(LegacyMerchantDto)
  async update(@GroupId() groupId: string, @Param('mchId') mchId: string, @Body() body: LegacyMerchantUpdateDto): Promise<Envelope<LegacyMerchantDto>> {
    const { groupId: bodyGroupId, ...changes } = body;
    checkBodyGroup(bodyGroupId, groupId);
    await this.merchants.update(groupId, mchId, changes);
    return ok(toLegacyMerchant(await this.merchants.getWithBindings(groupId, mchId)));
  }

  @Delete(':mchId')
  @ApiOperation({ summary: 'Delete a merchant; refused (10000, HTTP 409) while it has a payment config or activation code' })
  @ApiResponse({ status: 409, description: 'code 10000: the merchant still has a payment config or activation code', type: EnvelopeDto })
  @ApiEnvelope()
  async delete(@GroupId() groupId: string, @Param('mchId') mchId: string): Promise<Envelope<never>> {
    await this.merchants.delete(groupId, mchId);
    return ok();
  }
}
