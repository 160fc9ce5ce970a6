import { ApiEnvelope, ApiEnvelopeErrors, Envelope, EnvelopeDto, GroupId, ok, PboApi } from '@app/common';
import { Controller, Delete, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { PaymentConfigService } from '../payment-config.service';

/** The legacy single-method unbind (docs/decisions.md, "Legacy /api/v2"); v1 drops a whole binding instead. */
@ApiTags('merchant payment config (legacy v2)')
@PboApi()
@ApiEnvelopeErrors(400, 403, 404)
@Controller('api/v2/mchInfo/payment')
export class PaymentConfigV2Controller {
  constructor(private readonly paymentConfigs: PaymentConfigService) {}

  @Delete(':mchId/:paymentMethod')
  @ApiOperation({
    summary: "Unbind one payment method from every binding of the merchant; a binding goes with its last method; the merchant's devices are re-pushed",
  })
  @ApiParam({ name: 'paymentMethod', description: 'payment method code (01) or name (VISA, any case)', example: '01' })
  @ApiResponse({ status: 400, description: 'code 10000: paymentMethod is not a payment method code or name', type: EnvelopeDto })
  @ApiResponse({ status: 403, description: 'code 13000: the merchant belongs to another PBO', type: EnvelopeDto })
  @ApiResponse({ status: 404, description: 'code 14000: no such merchant, or the method is not bound', type: EnvelopeDto })
  @ApiEnvelope()
  async unbindMethod(@GroupId() groupId: string, @Param('mchId') mchId: string, @Param('paymentMethod') paymentMethod: string): Promise<Envelope<never>> {
    await this.paymentConfigs.unbindMethod(groupId, mchId, paymentMethod);
    return ok();
  }
}
