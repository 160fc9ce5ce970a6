import { ApiIdempotencyKey, ApiProblem, DomainError, GroupId, IdempotencyKey, IdGenerator, retryAfterResponseHeader, ServiceRequestId } from '@app/common';
import { ContractViolationError, decodeContract, GatewayTransactionReplyV1, GatewayTransactionV1 } from '@app/contracts';
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { errorOfRefusal } from '@app/messaging';
import { GatewayApi } from '../../shared/gateway-api';
import { GATEWAY_ROUTE_PREFIX } from '../../shared/namespace';
import { TransactionDto } from '../dto/transaction.dto';
import { CaptureRequestDto, RefundRequestDto } from './dto/follow-up-request.dto';
import { FollowUpService, FollowUpTarget } from './follow-up.service';

// The one rule of every route that reads the header (libs/common idempotency-key.ts).
const IDEMPOTENCY_KEY_HEADER = ApiIdempotencyKey('the request id, per transaction; the same key answers the first outcome again (absent: a new one)');

/** The 409 of a terminal being settled says when to send the request again. */
const HELD_RETRY_AFTER = retryAfterResponseHeader("on a terminal being settled: the settlement's hold left");

/** A decline is the host's answer to a complete request, not a failure to retry. */
const DECLINED_TOO =
  "the host's decline is answered 200 too: the new action FAILED with reason HostDeclined and the host's code and message, the transaction's sums and status unchanged (its requestId is this response's x-service-request-id)";

/** The statuses every follow-up may answer besides 200. */
function followUpResponses(): MethodDecorator {
  return (target, key, descriptor) => {
    for (const [status, description] of [
      [400, 'invalid amount (decimals, zero), Idempotency-Key or body'],
      [403, "the transaction is another PBO's"],
      [
        409,
        "the money rules refuse it (state, sums, batch closed, another action in flight; a refund or capture once the PBO uses the transaction's MID/TID on no device any more), or the same Idempotency-Key is still in flight (Retry-After: the seconds until the first one has had all its time), or the terminal's batch is being settled with its host longer than a follow-up waits for it (Retry-After; nothing sent, send it again)",
      ],
      [422, 'the Idempotency-Key was used for another request on this transaction'],
      [502, 'the host could not be reached (unavailable, no host connector, the request rejected before sending); recorded as a FAILED action'],
      [504, 'the host did not answer in time (reversed), or the outcome is not known yet (the action stays PENDING until the gateway learns it)'],
    ] as const) {
      ApiProblem({ status, description, ...(status === 409 ? { headers: HELD_RETRY_AFTER } : {}) })(target, key, descriptor);
    }
  };
}

/** A body that may be absent, validated as the validation pipe validates required ones. */
function optionalBodyOf<T extends object>(type: new () => T, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw DomainError.validation('request body must be a JSON object');
  try {
    return decodeContract(type, body);
  } catch (error) {
    if (error instanceof ContractViolationError) throw DomainError.validation(error.reason);
    throw error;
  }
}

/**
 * Body of a void: none, or an empty object. A void takes back the whole transaction, so it names
 * nothing; a field sent is refused like an unknown field of any other body (review r14p), and the
 * document says so exactly (no property, none other allowed: review r14q).
 */
const VOID_BODY_SCHEMA = { type: 'object', properties: {}, additionalProperties: false, maxProperties: 0 } as const;

/** A body that may only be absent or `{}` ({@link VOID_BODY_SCHEMA}): a 400 naming the first field otherwise. */
function emptyBodyOf(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw DomainError.validation('request body must be a JSON object');
  const [field] = Object.keys(body);
  if (field !== undefined) throw DomainError.validation(`${JSON.stringify(field)} is not an accepted field: a void names nothing (send no body, or {})`);
}

/** The back office's void, refund and capture (PBO token): each maps to one follow-up use-case. */
@ApiTags('gateway transactions (v1)')
@GatewayApi()
@Controller(`${GATEWAY_ROUTE_PREFIX}/transaction/:tranId`)
export class FollowUpController {
  constructor(
    private readonly followUps: FollowUpService,
    private readonly ids: IdGenerator,
  ) {}

  @Post('void')
  @HttpCode(200)
  @ApiOperation({ summary: 'Void the whole transaction, before its batch is settled (none of it refunded)' })
  @IDEMPOTENCY_KEY_HEADER
  @ApiBody({ schema: VOID_BODY_SCHEMA, required: false, description: 'none, or an empty object: a void names nothing' })
  @ApiOkResponse({ type: TransactionDto, description: `the transaction, VOIDED; ${DECLINED_TOO}` })
  @followUpResponses()
  async void(
    @GroupId() groupId: string,
    @Param('tranId') tranId: string,
    // Optional: no body, or an empty object; anything else is refused (400), as other bodies are.
    @Body() body: unknown,
    @ServiceRequestId() serviceRequestId: string,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<GatewayTransactionV1> {
    if (body !== undefined) emptyBodyOf(body);
    return this.answer(await this.followUps.void(this.targetOf(groupId, tranId, serviceRequestId, idempotencyKey)));
  }

  @Post('refund')
  @HttpCode(200)
  @ApiOperation({ summary: 'Refund part or all of what was captured; APPROVED while some is left, REFUNDED once all is refunded' })
  @IDEMPOTENCY_KEY_HEADER
  @ApiBody({ type: RefundRequestDto })
  @ApiOkResponse({ type: TransactionDto, description: `the transaction with its new action; ${DECLINED_TOO}` })
  @followUpResponses()
  async refund(
    @GroupId() groupId: string,
    @Param('tranId') tranId: string,
    @Body() body: RefundRequestDto,
    @ServiceRequestId() serviceRequestId: string,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<GatewayTransactionV1> {
    return this.answer(await this.followUps.refund(this.targetOf(groupId, tranId, serviceRequestId, idempotencyKey), body.amount, body.reason));
  }

  @Post('capture')
  @HttpCode(200)
  @ApiOperation({ summary: 'Capture an AUTH within 7 days of its approval, once, at most what was authorised (absent amount: all of it)' })
  @IDEMPOTENCY_KEY_HEADER
  @ApiBody({ type: CaptureRequestDto, required: false })
  @ApiOkResponse({ type: TransactionDto, description: `the transaction with its new action; ${DECLINED_TOO}` })
  @followUpResponses()
  async capture(
    @GroupId() groupId: string,
    @Param('tranId') tranId: string,
    // Optional: no body captures all of it; a body is held to its class like any other.
    @Body() body: unknown,
    @ServiceRequestId() serviceRequestId: string,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<GatewayTransactionV1> {
    const request = body === undefined ? new CaptureRequestDto() : optionalBodyOf(CaptureRequestDto, body);
    return this.answer(await this.followUps.capture(this.targetOf(groupId, tranId, serviceRequestId, idempotencyKey), request.amount));
  }

  private targetOf(groupId: string, tranId: string, serviceRequestId: string, idempotencyKey: string | undefined): FollowUpTarget {
    return { groupId, tranId, serviceRequestId, requestId: idempotencyKey ?? `http-${this.ids.bytes(16).toString('base64url')}` };
  }

  /** The transaction, or the refusal as problem details with its status. */
  private answer(reply: GatewayTransactionReplyV1): GatewayTransactionV1 {
    if (reply.refusal) throw errorOfRefusal(reply.refusal);
    if (!reply.transaction) throw new Error('a follow-up answered neither a transaction nor a refusal');
    return reply.transaction;
  }
}
