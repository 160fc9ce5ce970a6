import { HOST_ORIGINAL_KINDS } from '@app/contracts';
import fc from 'fast-check';
import { HostProtocolError, JsonDialect } from '../dialect';
import { dialectFor } from '../dialect-for';
import { authorizeRequest, followUpRequest, original, settleRequest, target, TEST_PAN, wireContext } from '../testing/factories';
import { EZ_AIO_ORIGINAL_TYPES } from './ez-aio';
import { decimalToMinor, FOLLOW_UP_ORIGINALS, minorToDecimal } from './json-support';
import { POMELO_ORIGINAL_TYPES } from './pomelo';

const json = (format: 'MPGS_AP' | 'POMELO_JSON' | 'EZ_AIO' | 'EZ_WALLET'): JsonDialect => dialectFor(format) as JsonDialect;

describe('JSON amounts', () => {
  it.each([
    ['1234', 2, '12.34'],
    ['5', 2, '0.05'],
    ['1234', 0, '1234'],
    ['1', 3, '0.001'],
  ])('should write %s minor units with exponent %i as %s and read it back', (minor, exponent, decimal) => {
    expect(minorToDecimal(minor, exponent)).toBe(decimal);
    expect(decimalToMinor(decimal, exponent)).toBe(minor);
  });

  it('should refuse more decimals than the currency has', () => {
    expect(decimalToMinor('12.345', 2)).toBeNull();
    expect(decimalToMinor('-1', 2)).toBeNull();
  });
});

describe('MPGS_AP', () => {
  const terminal = target({ mid: 'MID 42' });
  const sale = { mti: '0200', context: wireContext({ stan: '000007', transmittedAt: '0115101010' }) };

  it('should PUT a PAY on the order and transaction named by terminal, time and STAN, amounts in decimal and ISO alpha currency', () => {
    const { method, path, body } = json('MPGS_AP').buildHttpRequest('authorize', authorizeRequest({ target: terminal, minor: '1234' }), sale.context);
    const ref = `${terminal.tid}-0115101010-000007`;
    expect({ method, path }).toEqual({ method: 'PUT', path: `/api/rest/version/100/merchant/MID%2042/order/${ref}/transaction/${ref}` });
    expect(body).toMatchObject({
      apiOperation: 'PAY',
      order: { amount: '12.34', currency: 'MAD' },
      transaction: { source: 'CARD_PRESENT' },
      sourceOfFunds: { type: 'CARD', provided: { card: { number: TEST_PAN, expiry: { month: '12', year: '25' } } } },
      posTerminal: { lane: terminal.tid, panEntryMode: 'CONTACTLESS' },
    });
    expect(JSON.stringify((body.sourceOfFunds as { provided: { card: { emvRequest: string } } }).provided.card.emvRequest)).not.toContain(TEST_PAN);
  });

  it('should VOID the original transaction, marking a reversal with the TIMEOUT_REVERSAL reference', () => {
    const request = followUpRequest(terminal, original(sale));
    const voided = json('MPGS_AP').buildHttpRequest('void', request, wireContext());
    const reversed = json('MPGS_AP').buildHttpRequest('reverse', request, wireContext());
    expect(voided.body).toMatchObject({ apiOperation: 'VOID', transaction: { targetTransactionId: `${terminal.tid}-0115101010-000007` } });
    expect((voided.body.transaction as Record<string, unknown>).reference).toBeUndefined();
    expect(reversed.body).toMatchObject({ apiOperation: 'VOID', transaction: { reference: 'TIMEOUT_REVERSAL' } });
  });

  it('should read acquirerCode, receipt and authorizationCode', () => {
    const answer = json('MPGS_AP').parseHttpResponse('authorize', 200, {
      result: 'FAILURE',
      response: { gatewayCode: 'INSUFFICIENT_FUNDS', acquirerCode: '51' },
      transaction: { id: 'x', type: 'PAYMENT', receipt: '501500000009' },
    });
    expect(answer).toMatchObject({ hostRespCode: '51', rrn: '501500000009', approvalCode: null });
  });

  it('should map the gateway code when there is no acquirerCode, and an ERROR result to 30', () => {
    expect(json('MPGS_AP').parseHttpResponse('authorize', 200, { result: 'FAILURE', response: { gatewayCode: 'DECLINED' } }).hostRespCode).toBe('05');
    expect(
      json('MPGS_AP').parseHttpResponse('capture', 400, { result: 'ERROR', error: { cause: 'INVALID_REQUEST', explanation: 'bad amount' } }),
    ).toMatchObject({
      hostRespCode: '30',
      hostRespMessage: 'Format error: bad amount',
    });
  });

  it('should approve on result SUCCESS and read a PARTIALLY_APPROVED amount from the transaction', () => {
    const dialect = json('MPGS_AP');
    const partial = { result: 'SUCCESS', response: { gatewayCode: 'PARTIALLY_APPROVED' }, transaction: { id: 't', type: 'PAYMENT', amount: '7.50', currency: 'MYR' } };
    expect(dialect.parseHttpResponse('authorize', 200, partial)).toMatchObject({ approved: true, hostRespCode: '10', approvedAmount: { minor: '750', currency: '458' } });
    expect(dialect.parseHttpResponse('authorize', 200, { ...partial, transaction: { id: 't', type: 'PAYMENT' } })).toMatchObject({ approved: true, approvedAmountUnnamed: true });
    expect(dialect.parseHttpResponse('authorize', 200, { result: 'SUCCESS', response: { gatewayCode: 'APPROVED_AUTO' } })).toMatchObject({ approved: true, hostRespCode: '00' });
    expect(dialect.parseHttpResponse('authorize', 200, { result: 'FAILURE', response: { gatewayCode: 'DECLINED', acquirerCode: '00' } }).approved).toBe(false);
  });

  it('should refuse an answer that is not an MPGS body', () => {
    expect(() => json('MPGS_AP').parseHttpResponse('authorize', 502, '<html>bad gateway</html>')).toThrow(/not a JSON object/);
  });
});

describe('POMELO_JSON', () => {
  it('should POST snake_case with the amount as an integer of minor units', () => {
    const { method, path, body } = json('POMELO_JSON').buildHttpRequest('authorize', authorizeRequest({ minor: '1234', kind: 'PREAUTH' }), wireContext());
    expect({ method, path }).toEqual({ method: 'POST', path: '/acquiring/v1/transactions' });
    expect(body).toMatchObject({
      type: 'PRE_AUTHORIZATION',
      amount: 1234,
      currency: 'MAD',
      card: { pan: TEST_PAN, expiration: '2512', entry_mode: 'CONTACTLESS_CHIP' },
    });
  });

  it('should send batch totals as integers and read the host totals back', () => {
    const { body } = json('POMELO_JSON').buildHttpRequest(
      'settle',
      settleRequest(target(), { saleCount: 2, saleMinor: '3000', refundCount: 1, refundMinor: '500' }),
      wireContext(),
    );
    expect(body.totals).toEqual({ sales_count: 2, sales_amount: 3000, refunds_count: 1, refunds_amount: 500 });
    const answer = json('POMELO_JSON').parseHttpResponse('settle', 200, {
      status: 'OUT_OF_BALANCE',
      response_code: '95',
      message: 'Reconcile error',
      host_totals: { sales_count: 1, sales_amount: 3000, refunds_count: 0, refunds_amount: 0 },
    });
    expect(answer).toMatchObject({ hostRespCode: '95', hostTotals: { saleCount: 1, saleMinor: '3000', refundCount: 0, refundMinor: '0' } });
  });
});

describe('EZ_AIO', () => {
  it('should POST every call to one endpoint with a msgType, decimal amounts and the numeric currency', () => {
    const sale = { mti: '0200', context: wireContext() };
    const terminal = target();
    const refund = json('EZ_AIO').buildHttpRequest(
      'refund',
      followUpRequest(terminal, original(sale, { rrn: '501500000001', approvalCode: 'ABC123' }), '50', '414'),
      wireContext(),
    );
    expect(refund).toMatchObject({ method: 'POST', path: '/aio/v2/transaction' });
    expect(refund.body).toMatchObject({ msgType: 'REFUND', amount: '0.050', currencyCode: '414', originalTxn: { rrn: '501500000001', authCode: 'ABC123' } });
    expect(json('EZ_AIO').buildHttpRequest('signon', { requestId: 'r1', target: terminal }, wireContext()).body).toMatchObject({ msgType: 'LOGON' });
  });

  it('should approve by txnStatus, not by the code', () => {
    expect(json('EZ_AIO').parseHttpResponse('authorize', 200, { respCode: '00', txnStatus: 'DECLINED' }).approved).toBe(false);
    expect(json('EZ_AIO').parseHttpResponse('authorize', 200, { respCode: '08', txnStatus: 'APPROVED' }).approved).toBe(true);
  });

  it('should refuse an answer whose txnStatus it does not know', () => {
    expect(() => json('EZ_AIO').parseHttpResponse('authorize', 200, { respCode: '00', txnStatus: 'MAYBE' })).toThrow(/unknown status MAYBE/);
  });
});

describe('EZ_WALLET', () => {
  it('should POST follow-ups to a sub-resource of the original payment', () => {
    const sale = { mti: '0200', context: wireContext({ stan: '000009', transmittedAt: '0115101010' }) };
    const terminal = target();
    const { path, body } = json('EZ_WALLET').buildHttpRequest('reverse', followUpRequest(terminal, original(sale)), wireContext());
    expect(path).toBe(`/wallet/v1/payments/${terminal.tid}-0115101010-000009/reversals`);
    expect(body).toMatchObject({ amount: { value: 1000, currency: '504' } });
  });

  it('should map status words to response codes: SUCCEEDED 00, DECLINED with its reason, FAILED 96 by default', () => {
    const dialect = json('EZ_WALLET');
    expect(dialect.parseHttpResponse('authorize', 200, { id: 'p', state: 'SUCCEEDED', authCode: 'Q1W2E3', reference: '501500000003' })).toMatchObject({
      hostRespCode: '00',
      approvalCode: 'Q1W2E3',
      rrn: '501500000003',
    });
    expect(dialect.parseHttpResponse('authorize', 200, { id: 'p', state: 'DECLINED', reason: 'INSUFFICIENT_BALANCE' }).hostRespCode).toBe('51');
    expect(dialect.parseHttpResponse('reverse', 500, { id: 'p', state: 'FAILED' }).hostRespCode).toBe('96');
  });
});

describe('JSON follow-ups by the kind of their original (issue 16)', () => {
  const FORMATS = ['MPGS_AP', 'POMELO_JSON', 'EZ_AIO', 'EZ_WALLET'] as const;
  const OPERATIONS = ['capture', 'refund', 'void', 'reverse'] as const;
  /** What each format's request names: the operation and, where the format says it, the original's kind. */
  const wireOf = (format: (typeof FORMATS)[number], http: { path: string; body: Record<string, unknown> }): string => {
    const body = http.body as Record<string, Record<string, unknown> | string>;
    switch (format) {
      case 'MPGS_AP':
        return `${body.apiOperation as string}${(body.transaction as Record<string, unknown>).reference === 'TIMEOUT_REVERSAL' ? ' reversal' : ''}`;
      case 'POMELO_JSON':
        return `${body.type as string} of ${(body.original as Record<string, string>).type}`;
      case 'EZ_AIO':
        return `${body.msgType as string} of ${(body.originalTxn as Record<string, string>).msgType}`;
      case 'EZ_WALLET':
        return http.path.split('/').filter((part, index, parts) => index === 3 || index === parts.length - 1).join(' ');
    }
  };
  const EXPECTED: Record<(typeof FORMATS)[number], Record<(typeof OPERATIONS)[number], (kind: string) => string>> = {
    MPGS_AP: { capture: () => 'CAPTURE', refund: () => 'REFUND', void: () => 'VOID', reverse: () => 'VOID reversal' },
    POMELO_JSON: {
      capture: (kind) => `COMPLETION of ${POMELO_ORIGINAL_TYPES[kind as 'SALE']}`,
      refund: (kind) => `REFUND of ${POMELO_ORIGINAL_TYPES[kind as 'SALE']}`,
      void: (kind) => `VOID of ${POMELO_ORIGINAL_TYPES[kind as 'SALE']}`,
      reverse: (kind) => `REVERSAL of ${POMELO_ORIGINAL_TYPES[kind as 'SALE']}`,
    },
    EZ_AIO: {
      capture: (kind) => `COMPLETION of ${EZ_AIO_ORIGINAL_TYPES[kind as 'SALE']}`,
      refund: (kind) => `REFUND of ${EZ_AIO_ORIGINAL_TYPES[kind as 'SALE']}`,
      void: (kind) => `VOID of ${EZ_AIO_ORIGINAL_TYPES[kind as 'SALE']}`,
      reverse: (kind) => `REVERSAL of ${EZ_AIO_ORIGINAL_TYPES[kind as 'SALE']}`,
    },
    EZ_WALLET: Object.fromEntries(
      OPERATIONS.map((operation) => [
        operation,
        (kind: string) => `${kind === 'SALE' || kind === 'PREAUTH' ? 'payments' : 'operations'} ${{ capture: 'captures', refund: 'refunds', void: 'cancellations', reverse: 'reversals' }[operation]}`,
      ]),
    ) as Record<(typeof OPERATIONS)[number], (kind: string) => string>,
  };

  it('should build each follow-up its format names for the original, and refuse the ones no format can express', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FORMATS), fc.constantFrom(...OPERATIONS), fc.constantFrom(...HOST_ORIGINAL_KINDS), (format, operation, kind) => {
        const terminal = target({ hostMessageFormat: format });
        const request = followUpRequest(terminal, original({ mti: kind === 'PREAUTH' ? '0100' : '0200', context: wireContext() }, undefined, kind));
        const build = () => json(format).buildHttpRequest(operation, request, wireContext());
        if (FOLLOW_UP_ORIGINALS[operation].includes(kind)) expect(wireOf(format, build())).toBe(EXPECTED[format][operation](kind));
        else expect(build).toThrow(new RegExp(`${format}.*cannot ${operation} a ${kind}: `));
      }),
    );
  });

  it('should read an original without a kind from its MTI, as the ISO dialect does', () => {
    const request = followUpRequest(target(), original({ mti: '0100', context: wireContext() }));
    expect(json('POMELO_JSON').buildHttpRequest('capture', request, wireContext()).body).toMatchObject({ type: 'COMPLETION', original: { type: 'PRE_AUTHORIZATION' } });
    expect(() => json('EZ_AIO').buildHttpRequest('refund', request, wireContext())).toThrow(/cannot refund a PREAUTH/);
  });

  it('should send a repeated reversal under the same idempotency id: the worker keeps its STAN and time', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FORMATS), fc.constantFrom('SALE', 'PREAUTH', 'CAPTURE', 'REFUND' as const), (format, kind) => {
        const request = followUpRequest(target(), original({ mti: '0200', context: wireContext() }, undefined, kind));
        const context = wireContext();
        const first = json(format).buildHttpRequest('reverse', request, context);
        const repeated = json(format).buildHttpRequest('reverse', request, { ...context, repeat: true });
        expect(repeated).toEqual(first);
        const ids = { MPGS_AP: first.path, POMELO_JSON: first.body.transaction_id, EZ_AIO: first.body.txnRef, EZ_WALLET: first.body.operationId };
        expect(ids[format]).toContain(`${request.target.tid}-${context.transmittedAt}-${context.stan}`);
      }),
    );
  });
});

describe('JSON reversals: what acknowledges (issue 16)', () => {
  /** Each format's answer to a reversal: its status word and its code or reason. */
  const ANSWERS = {
    MPGS_AP: {
      acknowledging: [
        { result: 'SUCCESS', response: { gatewayCode: 'APPROVED', acquirerCode: '00' } },
        { result: 'FAILURE', response: { gatewayCode: 'DECLINED', acquirerCode: '94' } },
      ],
      open: [
        { result: 'FAILURE', response: { gatewayCode: 'DECLINED', acquirerCode: '25' } },
        { result: 'FAILURE', response: { gatewayCode: 'NOT_SUPPORTED' } },
        { result: 'PENDING', response: { gatewayCode: 'APPROVED' } },
        { result: 'ERROR', error: { cause: 'INVALID_REQUEST', explanation: 'already voided' } },
        { result: 'FAILURE', response: { gatewayCode: 'SYSTEM_ERROR' } },
      ],
    },
    POMELO_JSON: {
      acknowledging: [
        { status: 'APPROVED', response_code: '00' },
        { status: 'REJECTED', response_code: '94' },
      ],
      open: [
        { status: 'REJECTED', response_code: '25' },
        { status: 'REJECTED', response_code: '12' },
        { status: 'ERROR', response_code: '94' },
        { status: 'ERROR', response_code: '30' },
        { status: 'REJECTED', response_code: '00' },
      ],
    },
    EZ_AIO: {
      acknowledging: [
        { respCode: '00', txnStatus: 'APPROVED' },
        { respCode: '94', txnStatus: 'DECLINED' },
      ],
      open: [
        { respCode: '25', txnStatus: 'DECLINED' },
        { respCode: '00', txnStatus: 'DECLINED' },
        { respCode: '94', txnStatus: 'FAILED' },
        { respCode: '96', txnStatus: 'FAILED' },
      ],
    },
    EZ_WALLET: {
      acknowledging: [
        { id: 'r', state: 'SUCCEEDED' },
        { id: 'r', state: 'DECLINED', reason: 'ALREADY_REVERSED' },
      ],
      open: [
        { id: 'r', state: 'DECLINED', reason: 'ORIGINAL_NOT_FOUND' },
        { id: 'r', state: 'DECLINED', reason: 'NOT_ALLOWED' },
        { id: 'r', state: 'FAILED', reason: 'ALREADY_REVERSED' },
        { id: 'r', state: 'FAILED' },
      ],
    },
  } as const;

  it.each(Object.keys(ANSWERS) as (keyof typeof ANSWERS)[])('%s: a reversal is acknowledged by approval or "already reversed", and kept open otherwise', (format) => {
    const dialect = json(format);
    for (const body of ANSWERS[format].acknowledging) expect({ body, approved: dialect.parseHttpResponse('reverse', 200, body).approved }).toEqual({ body, approved: true });
    for (const body of ANSWERS[format].open) expect({ body, approved: dialect.parseHttpResponse('reverse', 200, body).approved }).toEqual({ body, approved: false });
  });

  it.each(Object.keys(ANSWERS) as (keyof typeof ANSWERS)[])('%s: "already reversed" acknowledges a reversal only, not a void or refund', (format) => {
    const [, alreadyDone] = ANSWERS[format].acknowledging;
    const dialect = json(format);
    expect(dialect.parseHttpResponse('reverse', 200, alreadyDone)).toMatchObject({ approved: true, hostRespCode: '94' });
    for (const operation of ['void', 'refund', 'capture', 'authorize'] as const) expect(dialect.parseHttpResponse(operation, 200, alreadyDone).approved).toBe(false);
  });
});

describe('JSON failures that do not say whether money moved (review of issue 16)', () => {
  /** Per format, answers that neither approve nor decline: an error or an outcome the host does not know yet. */
  const UNKNOWN = {
    MPGS_AP: [
      { result: 'PENDING', response: { gatewayCode: 'APPROVED', acquirerCode: '00' } },
      { result: 'PENDING', response: { gatewayCode: 'PENDING' } },
    ],
    POMELO_JSON: [{ status: 'ERROR', response_code: '96' }],
    EZ_AIO: [{ respCode: '96', txnStatus: 'FAILED' }],
    EZ_WALLET: [{ id: 'r', state: 'FAILED' }],
  } as const;

  it.each(Object.keys(UNKNOWN) as (keyof typeof UNKNOWN)[])(
    '%s: an unknown outcome (not a 4xx) of an authorisation, capture, refund or void is no answer (the connector reverses it), never a decline',
    (format) => {
      const dialect = json(format);
      for (const body of UNKNOWN[format]) {
        for (const operation of ['authorize', 'capture', 'refund', 'void'] as const) {
          expect(() => dialect.parseHttpResponse(operation, 200, body)).toThrow(HostProtocolError);
        }
        // A reversal's unknown outcome leaves the reversal open and retried.
        expect(dialect.parseHttpResponse('reverse', 200, body).approved).toBe(false);
        // Answered with a 4xx, the host refused the request itself: a decline, nothing moved.
        expect(dialect.parseHttpResponse('authorize', 400, body).approved).toBe(false);
      }
    },
  );
});


describe('JSON settlements the host refused (issue 16, found by the simulator cross-check)', () => {
  /** Per format, the host's refusal of a batch it could not read: its error answer, which carries no totals. */
  const REFUSED = {
    MPGS_AP: { result: 'ERROR', error: { cause: 'INVALID_REQUEST', explanation: 'totals must be given' } },
    POMELO_JSON: { status: 'ERROR', response_code: '30', message: 'totals must be given' },
    EZ_AIO: { txnRef: '', respCode: '30', respMessage: 'totals must be given', txnStatus: 'FAILED' },
    EZ_WALLET: { id: '', state: 'FAILED', reason: 'INVALID_REQUEST', detail: 'totals must be given' },
  } as const;

  it.each(Object.keys(REFUSED) as (keyof typeof REFUSED)[])('%s: should read a refused settlement as a format error (30) without totals, not as an unreadable answer', (format) => {
    const answer = json(format).parseHttpResponse('settle', 400, REFUSED[format]);
    expect(answer).toMatchObject({ hostRespCode: '30', approved: false });
    expect(answer.hostTotals).toBeUndefined();
  });
});
