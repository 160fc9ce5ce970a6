import { ApiEnvelope, ApiEnvelopePage, Envelope, EnvelopeDto, GroupId, ok, Page, PboApi } from '@app/common';
import { Body, Controller, Get, HttpCode, Param, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { LEGACY_PAGE_SIZE } from '../shared/legacy';
import { streamedPage } from '../shared/streamed-page';
import { LegacyOrderDetailDto, LegacyOrderDto, OrderEmailDto, OrderListQueryDto, toLegacyOrder, toLegacyOrderDetail } from './dto/order.dto';
import { OrderService } from './order.service';

/** Orders (spec 2 "Transactions (orders)"): the read model of the gateway's transactions, by the token's PBO. */
@ApiTags('orders (legacy v2)')
@PboApi()
@ApiResponse({ status: 400, description: 'code 10000: invalid input, msg names the field', type: EnvelopeDto })
@ApiResponse({ status: 403, description: 'code 13000: the order belongs to another PBO', type: EnvelopeDto })
@ApiResponse({ status: 404, description: 'code 14000: no such order', type: EnvelopeDto })
@Controller('api/v2/order')
export class OrderController {
  constructor(private readonly orders: OrderService) {}

  @Get()
  @ApiOperation({ summary: 'List orders, newest first (pageSize default 10, -1 returns all)' })
  @ApiEnvelopePage(LegacyOrderDto)
  async list(@GroupId() groupId: string, @Query() query: OrderListQueryDto): Promise<Envelope<Page<LegacyOrderDto>> | StreamableFile> {
    const page = query.toPageRequest(LEGACY_PAGE_SIZE);
    if (page.limit === null) return streamedPage(await this.orders.streamAll(groupId, query.toFilter()), toLegacyOrder);
    const found = await this.orders.list(groupId, query.toFilter(), page);
    return ok({ ...found, records: found.records.map(toLegacyOrder) });
  }

  @Get(':transactionId')
  @ApiOperation({ summary: 'One order with its actions' })
  @ApiEnvelope(LegacyOrderDetailDto)
  async detail(@GroupId() groupId: string, @Param('transactionId') transactionId: string): Promise<Envelope<LegacyOrderDetailDto>> {
    return ok(toLegacyOrderDetail(await this.orders.detail(groupId, transactionId)));
  }

  @Post('email/:transactionId')
  @HttpCode(200)
  @ApiOperation({ summary: 'E-mail the receipt (HTML and text)' })
  @ApiResponse({ status: 502, description: 'code 15000: the mail server refused or could not be reached (504 when it timed out)', type: EnvelopeDto })
  @ApiEnvelope()
  async email(@GroupId() groupId: string, @Param('transactionId') transactionId: string, @Body() body: OrderEmailDto): Promise<Envelope<never>> {
    await this.orders.emailReceipt(groupId, transactionId, body.email);
    return ok();
  }
}
