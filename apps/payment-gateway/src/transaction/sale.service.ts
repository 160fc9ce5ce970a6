import { Clock, DeviceClaims, DomainError, errorMessage, FIELD_CIPHER, FieldCipher, IdGenerator } from '@app/common';
import { currencyExponent, currencyInfo, decimalToMinor, GatewayTransactionV1, HostAuthorizeRequestV1 } from '@app/contracts';
import { isUniqueViolation, UnitOfWork } from '@app/database';
import { HostClient } from '@app/messaging';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { acceptanceSelection } from '../profile/acceptance-selection';
import { hostMerchantOf, hostTargetOf, merchantTimeZoneOf } from '../profile/host-target';
import { effectiveStatus } from '../profile/persistence/profile.entity';
import { PROFILE_ID_PATTERN } from '../shared/ids';
import { requireOwned } from '../shared/ownership';
import { paymentMethodOfAid } from './card/payment-method';
import { readSaleEmv } from './card/sale-emv';
import { askAuthorization, askUntilKnown, notDeliveredOutcome, outcomeOfReply, SaleOutcome } from './host-outcome';
import { IdempotencyScope } from './persistence/idempotency.repository';
import { IdempotencyService, requestHashOf } from './idempotency.service';
import { CARD_READ_INDEX } from './persistence/transaction.entity';
import { TransactionRepository } from './persistence/transaction.repository';
import { SaleProfiles } from './sale-profiles';
import { SaleRecorder } from './sale-recorder';
import type { SaleRequest } from './sale-request';
import { isHeld, TerminalBatchRepository } from './persistence/terminal-batch.repository';
import { heldRefusal, TerminalHeldError, waitingWhileSettling } from './settlement/terminal-hold';
import { acquirerKeyOf, pendingAction, terminalKeyOf, type Transaction, type TransactionAction } from './transaction';
import { firstCheckAt, TRANSACTION_SETTINGS, TransactionSettings } from './transaction-settings';
import { TransactionViews } from './transaction-views';

/** A sale ready to be written and sent: its rows, and the host request (which alone holds the card data). */
interface PreparedSale {
  transaction: Transaction;
  action: TransactionAction;
  hostRequest: HostAuthorizeRequestV1;
}

/** The amount in minor units of its currency, or a validation error naming the field. */
function minorOf(amount: SaleRequest['amount']): string {
  const exponent = currencyExponent(amount.currency);
  const minor = decimalToMinor(amount.value, exponent);
  if (minor === null) throw DomainError.validation(`amount.value must have at most ${exponent} decimals in ${amount.currency}`);
  if (BigInt(minor) === 0n) throw DomainError.validation('amount.value must be more than zero');
  return minor;
}

/**
 * `POST /{ns}/api/v1/transaction` (issue 13): the SDK's sale or authorisation. The transaction is
 * written PENDING with its NEW action before the host is asked (a crash leaves a visible PENDING,
 * never nothing), then `host.authorize.v1` decides it and the outcome is recorded with its event.
 * An outcome the request cannot learn (the connector may have sent it) is never shown as a
 * decline: the gateway asks again under the same requestId at once, and the resolver keeps
 * asking until the connector says (docs/decisions.md, "Gateway transactions (issue 13)").
 */
@Injectable()
export class SaleService {
  private readonly logger = new Logger('Sale');

  constructor(
    private readonly saleProfiles: SaleProfiles,
    private readonly transactions: TransactionRepository,
    private readonly batches: TerminalBatchRepository,
    private readonly idempotency: IdempotencyService,
    private readonly recorder: SaleRecorder,
    private readonly views: TransactionViews,
    private readonly host: HostClient,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(TRANSACTION_SETTINGS) private readonly settings: TransactionSettings,
    @Inject(FIELD_CIPHER) private readonly cipher: FieldCipher,
  ) {}

  /** `serviceRequestId` (`req_…`, the request's x-service-request-id) becomes the NEW action's requestId. */
  async create(device: DeviceClaims, request: SaleRequest, serviceRequestId: string, idempotencyKey?: string): Promise<GatewayTransactionV1> {
    const scope: IdempotencyScope | undefined =
      idempotencyKey === undefined ? undefined : { groupId: device.groupId, deviceId: device.deviceId, idempotencyKey };
    const requestHash = scope ? requestHashOf(request) : '';
    // The checks that need no write come first (the profile is kept in memory): most requests are
    // new and valid, and one statement then writes the sale and takes its Idempotency-Key.
    let sale: PreparedSale | undefined;
    let refusal: unknown;
    try {
      sale = await this.prepare(device, request, serviceRequestId);
    } catch (error) {
      if (!scope) throw error;
      refusal = error;
    }
    // A settlement holding the sale's terminal is waited for (its batch must not change while it reconciles with the host).
    // With a key, the key's rules come first: a repeat under it writes nothing (the statement inserts
    // the transaction only when it took the key), so it is answered the stored result, never refused
    // as a used card read; a new key or none meets the card read's unique index.
    const prepared = sale;
    const written =
      prepared &&
      (await waitingWhileSettling(
        async () => {
          const done = await this.cardReadChecked(prepared, () =>
            this.transactions.insertNew(prepared.transaction, prepared.action, this.clock.now(), scope && { scope, requestHash }),
          );
          if (typeof done === 'object') throw new TerminalHeldError(terminalKeyOf(prepared.transaction), done.heldUntil);
          return done;
        },
        this.settings.settleWaitMs,
        this.clock,
      ));
    if (!sale || written !== 'written') {
      // A refused request with a key, or a key already taken: the rules of Idempotency-Key decide
      // first (a repeat is answered as before, another body 422, one in flight 409), then the refusal.
      const claim = await this.idempotency.claim(scope!, requestHash);
      if (claim.kind === 'abandoned') return this.views.current(claim.tranId);
      if (claim.kind === 'answered') {
        // A sale answered PENDING has an outcome since, perhaps: the answer is what it now is.
        return claim.body.tranStatus === 'PENDING' && claim.tranId ? this.views.current(claim.tranId) : (claim.body as unknown as GatewayTransactionV1);
      }
      try {
        if (!sale) throw refusal;
        const taken = sale;
        await this.cardReadChecked(taken, () =>
          this.uow.run(async () => {
            // The rare path of a key taken over: a settlement holding the terminal refuses it at once (409, retryable).
            const terminal = terminalKeyOf(taken.transaction);
            const row = await this.batches.lockShared(terminal);
            if (isHeld(row, this.clock.now())) throw heldRefusal(terminal, row.settleHoldUntil, this.clock.now());
            await this.transactions.insert(taken.transaction);
            await this.transactions.insertAction(taken.action);
            await this.idempotency.attach(scope!, taken.transaction.id);
          }),
        );
      } catch (error) {
        await this.idempotency.release(scope!).catch((release: unknown) => this.logger.warn(`Idempotency-Key not freed: ${errorMessage(release)}`));
        throw error;
      }
    }
    const outcome = await this.decide(sale);
    if (typeof outcome === 'string') return this.recorder.keepPending(sale.transaction.id, outcome, scope);
    return this.recorder.recordWritten(sale, outcome, scope);
  }

  /**
   * Runs the write of a new sale; a card read an earlier transaction used (the unique index on its
   * digest, platform-wide, so two identical reads at once meet it too and only one reaches the
   * host) becomes 409 `card-read-used`. The earlier transaction is named only to its own PBO.
   */
  private async cardReadChecked<T>(sale: PreparedSale, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error, CARD_READ_INDEX)) throw error;
      const earlier = await this.transactions.findByCardRead(sale.transaction.cardRead!);
      const named = earlier && earlier.groupId === sale.transaction.groupId ? ` by transaction ${earlier.id}` : '';
      throw DomainError.cardReadUsed(
        `emvData: this card read (PAN, ATC 9F36 and cryptogram 9F26) was already used${named}; a card makes a new cryptogram for every transaction: tap the card again`,
      );
    }
  }

  /** Asks the host, once more under the same requestId after an unknown outcome: the outcome, or why it is still unknown. */
  private async decide(sale: PreparedSale): Promise<SaleOutcome | string> {
    const { hostTimeoutMs, replyMarginMs, reaskWaitMs } = this.settings;
    const asked = await askUntilKnown(
      (waitMs) => askAuthorization(this.host, sale.hostRequest, waitMs),
      { firstWaitMs: hostTimeoutMs + replyMarginMs, repeatWaitMs: reaskWaitMs },
      (detail) => this.logger.warn(`sale ${sale.transaction.id} (${sale.action.id}): ${detail}; asking again`),
    );
    if (asked.kind === 'reply') return outcomeOfReply(asked.response);
    if (asked.kind === 'not-delivered') return notDeliveredOutcome(asked.detail);
    return asked.detail;
  }

  /** Every check that needs no write, in the order a caller can act on: body, card, profile, routing. */
  private async prepare(device: DeviceClaims, request: SaleRequest, serviceRequestId: string): Promise<PreparedSale> {
    const amountMinor = minorOf(request.amount);
    const currency = currencyInfo(request.amount.currency)!;
    const emv = readSaleEmv(request.emvData, { amount: request.amount, amountMinor });
    const paymentMethod = paymentMethodOfAid(emv.aid);
    if (!paymentMethod) throw DomainError.validation(`emvData AID ${emv.aid} is not of a payment method this gateway routes`);

    const profileId = request.profileId;
    if (!PROFILE_ID_PATTERN.test(profileId)) throw DomainError.notFound(`profile ${profileId} does not exist`);
    const found = await this.saleProfiles.get(profileId);
    const profile = requireOwned(found?.profile ?? null, device.groupId, `profile ${profileId}`);
    // The device token names the profile merchant-management gave the device (activation, config
    // pull): the profile's own device key is merchant-management's device uuid, which the token does not carry.
    if (device.profileId !== profileId) throw DomainError.ownerInvalid(`profile ${profileId} belongs to another device`);
    // Each activation gives the device a new id: a token naming another is an earlier activation's (the old phone's).
    if (profile.activeSdkId !== null && profile.activeSdkId !== device.deviceId)
      throw DomainError.unauthenticated('device token is of an earlier activation of this device; activate it again');
    if (effectiveStatus(profile) === 'DISABLED') throw DomainError.validation(`profile ${profileId} is DISABLED`);
    if (profile.currency !== currency.alpha)
      throw DomainError.validation(`amount.currency ${currency.alpha} is not the currency ${profile.currency} of profile ${profileId}`);
    const bound = found!.acceptances;
    const selection = acceptanceSelection(bound);
    const acceptance = bound.find((candidate) => selection[candidate.id]?.includes(paymentMethod));
    if (!acceptance) throw DomainError.validation(`profile ${profileId} has no acceptance for ${paymentMethod}`);
    const target = hostTargetOf(acceptance, profile.groupId, 'take payments');
    if (typeof target === 'string') throw DomainError.validation(`acceptance ${acceptance.id} of profile ${profileId} cannot take payments: ${target}`);

    const now = this.clock.now();
    const timeZone = merchantTimeZoneOf(profile, now.getUTCFullYear());
    if (timeZone.fallback !== null) this.logger.warn(`sale on profile ${profileId}: ${timeZone.fallback}`);
    const tranId = `tran_${this.ids.bytes(16).toString('base64url')}`;
    const actionId = `act_${this.ids.bytes(16).toString('base64url')}`;
    const hostRequest: HostAuthorizeRequestV1 = {
      requestId: actionId,
      target,
      timeoutMs: this.settings.hostTimeoutMs,
      kind: request.tranType === 'AUTH' ? 'PREAUTH' : 'SALE',
      amount: { minor: amountMinor, currency: currency.numeric },
      card: { emvTlv: request.emvData, entryMode: 'NFC' },
      merchant: hostMerchantOf(profile, acceptance, timeZone.zone),
    };
    const { card: _card, ...keptHostRequest } = hostRequest;
    const posReference = request.posReference ?? null;
    const transaction: Transaction = {
      id: tranId,
      groupId: profile.groupId,
      merchantId: profile.merchantId,
      profileId: profile.id,
      acceptanceId: acceptance.id,
      acceptanceName: acceptance.acptName,
      timeZone: profile.timeZone,
      sdkId: device.deviceId,
      tranType: request.tranType,
      tranStatus: 'PENDING',
      currency: currency.alpha,
      amountMinor,
      approvedMinor: null,
      capturedMinor: '0',
      refundedMinor: '0',
      paymentMethod,
      entryMode: 'NFC',
      ...emv.account,
      issCountryCode: emv.issCountryCode,
      cvmPerformed: emv.cvmPerformed,
      cvmSignatureUrl: null,
      aid: emv.aid,
      appName: emv.appName,
      tc: emv.tc,
      tvr: emv.tvr,
      tsi: emv.tsi,
      atc: emv.atc,
      cardRead: emv.cardRead((identity) => this.cipher.lookup(identity)),
      posReference,
      trace: '',
      description: request.description ?? null,
      callbackUrl: request.callbackUrl ?? null,
      merchantName: profile.merchantName,
      merchantAddr: profile.merchantAddr,
      mcc: profile.mcc,
      primaryMid: target.mid,
      primaryTid: target.tid,
      subMid: null,
      subTid: null,
      hostMessageFormat: target.hostMessageFormat,
      acquirerKey: acquirerKeyOf(acceptance),
      providerReference: profile.providerReference,
      linkedTranId: null,
      preferredAcceptanceTag: null,
      extraData: null,
      transStatusInfo: null,
      rrn: null,
      approvalCode: null,
      batchNo: null,
      settleState: 'OPEN',
      iccResponse: null,
      version: 1,
      createdAt: now,
      updatedAt: null,
    };
    const action = pendingAction({
      id: actionId,
      tranId,
      actionType: 'NEW',
      requestId: serviceRequestId,
      amountMinor,
      currency: currency.alpha,
      posReference,
      extraData: null,
      hostRequest: keptHostRequest,
      nextCheckAt: firstCheckAt(this.settings, now),
      createdAt: now,
    });
    return { transaction, action, hostRequest };
  }
}
