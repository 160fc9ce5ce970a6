import { JsonDialect } from '../dialect';
import { dialectFor } from '../dialect-for';
import { authorizeRequest, followUpRequest, original, settleRequest, target, TEST_PAN, wireContext } from '../testing/factories';
import { decimalToMinor, minorToDecimal } from './json-support';

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
    expect(() => dialect.parseHttpResponse('authorize', 200, { ...partial, transaction: { id: 't', type: 'PAYMENT' } })).toThrow(/not a string/);
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
    expect(() => json('EZ_AIO').parseHttpResponse('authorize', 200, { respCode: '00', txnStatus: 'MAYBE' })).toThrow(/unknown txnStatus/);
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
    expect(dialect.parseHttpResponse('authorize', 500, { id: 'p', state: 'FAILED' }).hostRespCode).toBe('96');
  });
});
