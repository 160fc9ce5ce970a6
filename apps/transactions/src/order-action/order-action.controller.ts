import { ApiEnvelope, ApiEnvelopeErrors, ApiIdempotencyKey, Envelope, EnvelopeDto, GroupId, IdempotencyKey, ok, PboApi, retryAfterResponseHeader } from '@app/common';
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CaptureDto, CaptureResultDto, RefundDto, RefundResultDto, VoidDto, VoidResultDto } from './dto/order-action.dto';
import { OrderActionService } from './order-action.service';

// On each method: the one rule of every route that reads the header (libs/common idempotency-key.ts).
const IDEMPOTENCY_KEY_HEADER = ApiIdempotencyKey('a retry with the same key (after a timeout) gets the first outcome instead of acting twice');

/** Void, refund and capture of an order (spec 2 section 4), through the gateway that owns the transaction. */
@ApiTags('orders (legacy v2)')
@PboApi()
@ApiEnvelopeErrors(504)
@ApiResponse({ status: 400, description: 'code 10000: invalid input (msg names the field; a wrong adminPwd is "adminPwd is wrong")', type: EnvelopeDto })
@ApiResponse({ status: 403, description: 'code 13000: the order belongs to another PBO', type: EnvelopeDto })
@ApiResponse({ status: 404, description: 'code 14000: no such order', type: EnvelopeDto })
@ApiResponse({
  status: 409,
  description:
    "code 10000: the money rules refuse it (state, amounts, settled), the order's device no longer exists, the host declined it (msg names the host's code; the order lists the declined action), the same Idempotency-Key is still in flight (with Retry-After: the seconds until the first one has had all its time), or the terminal is being settled with its host (msg \"terminal <MID>/<TID> (<currency>) is being settled with its host; send the request again once the settlement is done\", with Retry-After; nothing was sent: send it again then)",
  headers: retryAfterResponseHeader('on a terminal being settled: the settlement\'s hold left'),
  type: EnvelopeDto,
})
@ApiResponse({ status: 422, description: 'code 10000: the Idempotency-Key was used for another request on this order (another kind, amount or reason)', type: EnvelopeDto })
@ApiResponse({
  status: 502,
  description:
    'code 15000: the host could not be reached, or another context failed (504: timed out). A decline by the host is a 409',
  type: EnvelopeDto,
})
@Controller('api/v2/order')
export class OrderActionController {
  constructor(private readonly actions: OrderActionService) {}

  @Post('void/:transactionId')
  @IDEMPOTENCY_KEY_HEADER
  @HttpCode(200)
  @ApiOperation({ summary: 'Void an approved, unsettled transaction (adminPwd of its device)' })
  @ApiEnvelope(VoidResultDto)
  @ApiResponse({ status: 429, description: 'code 16000: too many wrong admin passwords for the device (Retry-After)', headers: retryAfterResponseHeader('with 429'), type: EnvelopeDto })
  async void(
    @GroupId() groupId: string,
    @Param('transactionId') transactionId: string,
    @Body() body: VoidDto,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<Envelope<VoidResultDto>> {
    return ok(await this.actions.void(groupId, transactionId, body.adminPwd, idempotencyKey));
  }

  @Post('refund/:transactionId')
  @IDEMPOTENCY_KEY_HEADER
  @HttpCode(200)
  @ApiOperation({ summary: 'Refund part or all of what was captured (adminPwd of its device)' })
  @ApiEnvelope(RefundResultDto)
  @ApiResponse({ status: 429, description: 'code 16000: too many wrong admin passwords for the device (Retry-After)', headers: retryAfterResponseHeader('with 429'), type: EnvelopeDto })
  async refund(
    @GroupId() groupId: string,
    @Param('transactionId') transactionId: string,
    @Body() body: RefundDto,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<Envelope<RefundResultDto>> {
    return ok(await this.actions.refund(groupId, transactionId, body, idempotencyKey));
  }

  @Post('capture/:transactionId')
  @IDEMPOTENCY_KEY_HEADER
  @HttpCode(200)
  @ApiOperation({ summary: 'Capture an authorisation, all of it or part ({} captures all)' })
  @ApiEnvelope(CaptureResultDto, "SUCCESS; data is spec 2's empty object with what became of the capture")
  async capture(
    @GroupId() groupId: string,
    @Param('transactionId') transactionId: string,
    @Body() body: CaptureDto,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<Envelope<CaptureResultDto>> {
    return ok(await this.actions.capture(groupId, transactionId, body.amount, idempotencyKey));
  }
}
