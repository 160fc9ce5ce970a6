import {
  DEAD_LETTER_HEADERS,
  deadLetterHeaders,
  deadLetterMessageId,
  defaultRedeliveryDelayMs,
  failureAction,
  PoisonMessageError,
} from './consumer-definition';

describe('failureAction', () => {
  it('should dead-letter a poison message on its first delivery', () => {
    expect(failureAction(new PoisonMessageError('mcc must be 4 digits'), 1, { maxDeliveries: 5 })).toEqual({
      kind: 'dead-letter',
      reason: 'mcc must be 4 digits',
    });
  });

  it('should retry another failure with the back-off of its delivery count', () => {
    expect(failureAction(new Error('database is down'), 2, { maxDeliveries: 5, redeliveryDelayMs: (n) => n * 100 })).toEqual({ kind: 'retry', delayMs: 200 });
  });

  it('should dead-letter another failure on its last allowed delivery, saying why', () => {
    expect(failureAction(new Error('database is down'), 5, { maxDeliveries: 5 })).toEqual({
      kind: 'dead-letter',
      reason: 'gave up after 5 deliveries: database is down',
    });
  });

  it('should allow five deliveries by default', () => {
    expect(failureAction(new Error('x'), 4, {}).kind).toBe('retry');
    expect(failureAction(new Error('x'), 5, {}).kind).toBe('dead-letter');
  });
});

describe('defaultRedeliveryDelayMs', () => {
  it('should double from 500 ms up to 30 s', () => {
    expect([1, 2, 3, 7, 20].map(defaultRedeliveryDelayMs)).toEqual([500, 1000, 2000, 30_000, 30_000]);
  });
});

describe('dead letters', () => {
  const message = { subject: 'gateway.profile.upsert.v1', payload: {}, msgId: 'id-1', headers: { 'x-trace-id': 't-1' }, deliveryCount: 3 };

  it('should keep the original headers and add why, where and after how many deliveries', () => {
    expect(deadLetterHeaders(message, 'gateway-upsert', 'broken')).toEqual({
      'x-trace-id': 't-1',
      [DEAD_LETTER_HEADERS.reason]: 'broken',
      [DEAD_LETTER_HEADERS.consumer]: 'gateway-upsert',
      [DEAD_LETTER_HEADERS.subject]: 'gateway.profile.upsert.v1',
      [DEAD_LETTER_HEADERS.messageId]: 'id-1',
      [DEAD_LETTER_HEADERS.deliveries]: '3',
    });
  });

  it('should fold a multi-line reason onto one bounded header line', () => {
    const reason = deadLetterHeaders(message, 'c', `first\r\nsecond ${'x'.repeat(2000)}`)[DEAD_LETTER_HEADERS.reason];

    expect(reason).toMatch(/^first second x+$/);
    expect(reason).toHaveLength(1024);
  });

  it('should name a dead letter by consumer and original id', () => {
    expect(deadLetterMessageId('gateway-upsert', 'id-1')).toBe('dlq:gateway-upsert:id-1');
  });
});
