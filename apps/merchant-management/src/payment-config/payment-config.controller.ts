import { ApiEnvelope, ApiEnvelopeErrors, ApiEnvelopePage, Envelope, EnvelopeDto, GroupId, ok, Page, PboApi } from '@app/common';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { PaymentConfigDeleteQueryDto, PaymentConfigDto, PaymentConfigListQueryDto, PaymentConfigWriteDto, toPaymentConfigDto } from './dto/payment-config.dto';
import { PaymentConfigService } from './payment-config.service';

@ApiTags('merchant payment config (v1)')
@PboApi()
@ApiEnvelopeErrors(400, 403, 404)
@Controller('api/openapi/v1/mchInfo/payment/:mchId')
export class PaymentConfigController {
  constructor(private readonly paymentConfigs: PaymentConfigService) {}

  @Get()
  @ApiOperation({ summary: 'Bindings of the merchant, one record per (acquirerProfileId, currency)' })
  @ApiEnvelopePage(PaymentConfigDto)
  async list(@GroupId() groupId: string, @Param('mchId') mchId: string, @Query() query: PaymentConfigListQueryDto): Promise<Envelope<Page<PaymentConfigDto>>> {
    const page = await this.paymentConfigs.list(groupId, mchId, query.toPageRequest(20));
    return ok({ ...page, records: page.records.map(toPaymentConfigDto) });
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Bind the merchant to an acquirer profile in a currency (adds methods to an existing binding)' })
  @ApiResponse({ status: 409, description: 'code 10000: a (currency, paymentMethodCode) is bound to another acquirer profile of the merchant', type: EnvelopeDto })
  @ApiEnvelope()
  async bind(@GroupId() groupId: string, @Param('mchId') mchId: string, @Body() body: PaymentConfigWriteDto): Promise<Envelope<never>> {
    await this.paymentConfigs.bind(groupId, mchId, body, 'merge');
    return ok();
  }

  @Put()
  @ApiOperation({ summary: 'Replace the whole subtree of the (acquirerProfileId, currency) binding' })
  @ApiEnvelope()
  async replace(@GroupId() groupId: string, @Param('mchId') mchId: string, @Body() body: PaymentConfigWriteDto): Promise<Envelope<never>> {
    await this.paymentConfigs.bind(groupId, mchId, body, 'replace');
    return ok();
  }

  @Delete()
  @ApiOperation({ summary: 'Drop the whole (acquirerProfileId, currency) binding' })
  @ApiEnvelope()
  async unbind(@GroupId() groupId: string, @Param('mchId') mchId: string, @Query() query: PaymentConfigDeleteQueryDto): Promise<Envelope<never>> {
    await this.paymentConfigs.unbind(groupId, mchId, query.acquirerProfileId, query.currency);
    return ok();
  }
}
