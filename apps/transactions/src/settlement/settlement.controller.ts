import { ApiEnvelope, ApiEnvelopeErrors, Envelope, EnvelopeDto, GroupId, ok, Page, PboApi, retryAfterResponseHeader } from '@app/common';
import { Body, Controller, Get, HttpCode, Param, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { LEGACY_PAGE_SIZE } from '../shared/legacy';
import { streamedPage } from '../shared/streamed-page';
import {
  LegacyBatchDetailDto,
  LegacyBatchDto,
  LegacyBatchPageDto,
  pageShape,
  SettleDto,
  SettlementEmailDto,
  SettlementListQueryDto,
  SettleResultDto,
  toLegacyBatch,
  toLegacyBatchDetail,
} from './dto/settlement.dto';
import { SettlementService } from './settlement.service';

/** Settlement batches (spec 2 "Settlement"), by the token's PBO. */
@ApiTags('settlement (legacy v2)')
@PboApi()
@ApiEnvelopeErrors(504)
@ApiResponse({ status: 400, description: 'code 10000: invalid input, msg names the field', type: EnvelopeDto })
@ApiResponse({ status: 403, description: 'code 13000: the batch belongs to another PBO (or, for e-mail, another merchant)', type: EnvelopeDto })
@ApiResponse({ status: 404, description: 'code 14000: no such batch', type: EnvelopeDto })
@Controller('api/v2/settlement')
export class SettlementController {
  constructor(private readonly settlements: SettlementService) {}

  @Get()
  @ApiOperation({ summary: 'List settlement batches, newest first (pageSize default 10, -1 returns all)' })
  @ApiEnvelope(LegacyBatchPageDto)
  async list(
    @GroupId() groupId: string,
    @Query() query: SettlementListQueryDto,
  ): Promise<Envelope<Page<LegacyBatchDto> & { pages: number; size: number }> | StreamableFile> {
    const page = query.toPageRequest(LEGACY_PAGE_SIZE);
    if (page.limit === null) {
      const rows = await this.settlements.streamAll(groupId, query.toFilter());
      return streamedPage(rows, toLegacyBatch, pageShape(rows.total, -1));
    }
    const found = await this.settlements.list(groupId, query.toFilter(), page);
    return ok({ ...found, records: found.records.map(toLegacyBatch), ...pageShape(found.total, page.pageSize) });
  }

  @Post('settle')
  @HttpCode(200)
  @ApiOperation({ summary: 'Settle a batch: the gateway closes it and reconciles it with the host' })
  @ApiEnvelope(SettleResultDto)
  @ApiResponse({
    status: 409,
    description:
      'code 10000: the batch is settled already, or being settled (by another settle of this batch, or of its terminal at the gateway: msg "is being settled", with Retry-After), its terminal still has sales or follow-ups with the host (Retry-After), it was recorded before batches were per acquirer and the gateway has not named its acquirer yet (an upgrade: Retry-After), it has nothing to settle (only authorisations not captured yet, named in msg: capture or void them; nothing is sent to the host), or the gateway refuses',
    headers: retryAfterResponseHeader('while the batch or its terminal is being settled, requests are still with the host, or the batch is being given its acquirer'),
    type: EnvelopeDto,
  })
  @ApiResponse({
    status: 502,
    description: 'code 15000: the gateway or the host failed (504: timed out; the batch stays settling, settle again to learn the outcome)',
    type: EnvelopeDto,
  })
  async settle(@GroupId() groupId: string, @Body() body: SettleDto): Promise<Envelope<SettleResultDto>> {
    return ok(await this.settlements.settle(groupId, body.batchId));
  }

  @Post('email')
  @HttpCode(200)
  @ApiOperation({ summary: 'E-mail the settlement report of the listed batches, their orders attached as CSV' })
  @ApiResponse({ status: 502, description: 'code 15000: the mail server refused or could not be reached (504 when it timed out)', type: EnvelopeDto })
  @ApiEnvelope()
  async email(@GroupId() groupId: string, @Body() body: SettlementEmailDto): Promise<Envelope<never>> {
    await this.settlements.emailReport(groupId, { batchIds: body.batchIds.map((ref) => ref.batchId), email: body.email, mchId: body.mchId });
    return ok();
  }

  @Get(':batchId')
  @ApiOperation({ summary: 'One batch with its summary per kind and payment method' })
  @ApiEnvelope(LegacyBatchDetailDto)
  async detail(@GroupId() groupId: string, @Param('batchId') batchId: string): Promise<Envelope<LegacyBatchDetailDto>> {
    return ok(toLegacyBatchDetail(await this.settlements.detail(groupId, batchId)));
  }
}
