import { ApiIdempotencyKey, ApiProblem, CurrentDevice, DeviceClaims, IdempotencyKey, retryAfterResponseHeader, ServiceRequestId } from '@app/common';
import { GatewayTransactionV1 } from '@app/contracts';
import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { GatewayDeviceApi } from '../shared/gateway-api';
import { GATEWAY_ROUTE_PREFIX } from '../shared/namespace';
import { SaleRequestDto } from './dto/sale-request.dto';
import { TransactionDto } from './dto/transaction.dto';
import { SaleService } from './sale.service';

@ApiTags('gateway transactions (v1)')
@GatewayDeviceApi()
@Controller(`${GATEWAY_ROUTE_PREFIX}/transaction`)
export class SaleController {
  constructor(private readonly sales: SaleService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: "A sale or authorisation from the SDK: the card's EMV data through the profile's acceptance for its payment method to the host",
    description:
      'Answered 201 with the transaction whatever the host said (APPROVED, DECLINED, REVERSED), and PENDING when its outcome could not be learnt in time: the gateway keeps asking, never declining for want of an answer.',
  })
  @ApiIdempotencyKey('per device, kept 24 h: the same key and body answer the stored transaction')
  @ApiCreatedResponse({ type: TransactionDto, headers: { Location: { description: '/transaction/<tranId>', schema: { type: 'string' } } } })
  @ApiProblem({
    status: 400,
    description: 'invalid input, EMV data (detail names the tag), amount or currency; a DISABLED profile; no acceptance for the payment method',
  })
  @ApiProblem({ status: 403, description: "the profile is another device's or another PBO's" })
  @ApiProblem({
    status: 409,
    description:
      'urn:softpos:problem:card-read-used: the card read (PAN, ATC 9F36, cryptogram 9F26) was used by an earlier transaction, whatever its outcome (tap the card again; the same Idempotency-Key answers the earlier result instead); urn:softpos:problem:conflict: a request with the same Idempotency-Key is still in flight (Retry-After: the seconds until the first one has had all its time); or the terminal\'s batch is being settled with its host longer than a sale waits for it (Retry-After; nothing sent, send it again)',
    headers: retryAfterResponseHeader("on a terminal being settled: the settlement's hold left"),
  })
  @ApiProblem({ status: 422, description: 'the Idempotency-Key was used with another body' })
  async create(
    @CurrentDevice() device: DeviceClaims,
    @Body() body: SaleRequestDto,
    @Res({ passthrough: true }) reply: FastifyReply,
    @ServiceRequestId() serviceRequestId: string,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<GatewayTransactionV1> {
    const transaction = await this.sales.create(device, body, serviceRequestId, idempotencyKey);
    // As profile creation does (spec 3, section 1 rule 4): where the created object is read.
    void reply.header('location', `/transaction/${transaction.tranId}`);
    return transaction;
  }
}
