import { currencyInfo, HostFollowUpRequestV1, HostOriginalV1, HostTotalsV1, JSON_HOST_FORMATS, JsonHostFormat } from '@app/contracts';
import { HostAnswer, HostOperation, HostProtocolError, HostRequestOf, JsonDialect, jsonDialectFor, WireContext } from '@app/host-protocol';
import { merchant } from '@app/host-protocol/testing/factories';
import { encodeTlv, TlvItem } from '@app/iso8583';
import { validMid, validTid } from '@app/testing';
import * as currencyCodes from 'currency-codes';
import fc from 'fast-check';
import { JSON_HOST_WIRES } from './http-server';
import { HostOutcome, JsonHostCall, JsonHostWire, ReadCall, WireBody, WireRefusal } from './json-wire';

/**
 * The connector's JSON dialects (libs/host-protocol) and the simulator's own reading of the same
 * formats (json-wire.ts and a *.wire.ts per format beside this file) are written apart, so each
 * checks the other: what the dialect builds must mean to the simulator what the request said
 * (amount, currency, references, card), and what the simulator answers must read in the dialect
 * as the outcome it decided. The expectations come from the formats' description (README of
 * libs/host-protocol, "JSON formats"), not from either side's code.
 */

const FORMATS: readonly JsonHostFormat[] = JSON_HOST_FORMATS;
const wireOf = (format: JsonHostFormat): JsonHostWire => JSON_HOST_WIRES.find((wire) => wire.format === format)!;
const dialectOf = (format: JsonHostFormat): JsonDialect => jsonDialectFor(format);

// ---------------------------------------------------------------- arbitraries

const digits = (length: number): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
const pad = (value: number, width: number): string => String(value).padStart(width, '0');
const monthDay = fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 })).map(([month, day]) => `${pad(month, 2)}${pad(day, 2)}`);
const time = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
  .map((parts) => parts.map((part) => pad(part, 2)).join(''));
const stan = fc.integer({ min: 1, max: 999_999 }).map((value) => pad(value, 6));
const contextArbitrary: fc.Arbitrary<WireContext> = fc.record({
  stan,
  transmittedAt: fc.tuple(monthDay, time).map(([date, at]) => `${date}${at}`),
  localTime: time,
  localDate: monthDay,
});

/** The currencies a host settles in, by ISO 4217 numeric code. */
const CURRENCIES = currencyCodes.codes().flatMap((alpha) => currencyInfo(alpha) ?? []);
const currency = fc.constantFrom(...CURRENCIES.map((info) => info.numeric));
const amount = fc.record({ minor: fc.bigInt({ min: 0n, max: 10n ** 12n - 1n }).map(String), currency });

interface CardDrawn {
  pan: string;
  /** YYMM, and the day 5F24 adds. */
  expiry: string;
  day: string;
  panTag: boolean;
  expiryTag: boolean;
  /** Discretionary data of tag 57; null: the card has no tag 57. */
  track: string | null;
  /** 5F34, two digits; null when absent. */
  sequence: string | null;
  /** ICC request tags (all on the connector's allow-list). */
  icc: TlvItem[];
}

const ICC_TAGS = [
  { tag: '9F02', length: 6 },
  { tag: '9F26', length: 8 },
  { tag: '82', length: 2 },
  { tag: '95', length: 5 },
  { tag: '9F36', length: 2 },
  { tag: '9F37', length: 4 },
];

const cardArbitrary: fc.Arbitrary<CardDrawn> = fc
  .record({
    pan: fc.integer({ min: 12, max: 19 }).chain((length) => digits(length)),
    expiry: fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 12 })).map(([year, month]) => `${pad(year, 2)}${pad(month, 2)}`),
    day: fc.integer({ min: 1, max: 28 }).map((day) => pad(day, 2)),
    panTag: fc.boolean(),
    expiryTag: fc.boolean(),
    track: fc.option(
      fc.integer({ min: 0, max: 13 }).chain((length) => digits(length)),
      { nil: null },
    ),
    sequence: fc.option(digits(2), { nil: null }),
    icc: fc
      .subarray(ICC_TAGS)
      .chain((tags) =>
        fc.tuple(
          ...tags.map(({ tag, length }) => fc.uint8Array({ minLength: length, maxLength: length }).map((bytes) => ({ tag, value: Buffer.from(bytes) }))),
        ),
      ),
  })
  // A card names its PAN in 5A or 57; tag 57 holds at most 37 digits.
  .filter((card) => (card.panTag || card.track !== null) && (card.track === null || card.pan.length + 5 + card.track.length <= 37));

const nibbles = (text: string): Buffer => Buffer.from(text.length % 2 === 1 ? `${text}F` : text, 'hex');

/** The card's ICC request data: 5F34 and the ICC tags, in the card's order (README, field 55 allow-list). */
function iccItems(card: CardDrawn): TlvItem[] {
  return [...(card.sequence !== null ? [{ tag: '5F34', value: Buffer.from(card.sequence, 'hex') }] : []), ...card.icc];
}

function cardTlv(card: CardDrawn): string {
  const items: TlvItem[] = [];
  if (card.panTag) items.push({ tag: '5A', value: nibbles(card.pan) });
  if (card.track !== null) items.push({ tag: '57', value: nibbles(`${card.pan}D${card.expiry}${card.track}`) });
  items.push({ tag: '5F20', value: Buffer.from('CARDHOLDER/TEST', 'latin1') });
  if (card.expiryTag) items.push({ tag: '5F24', value: Buffer.from(`${card.expiry}${card.day}`, 'hex') });
  items.push(...iccItems(card));
  return encodeTlv(items).toString('hex').toUpperCase();
}

/** What the host must read of the card: README "JSON formats" (card data in its own fields, the ICC data the allow-listed field 55 content as hex). */
function cardMeaning(card: CardDrawn) {
  return {
    pan: card.pan,
    expiry: card.expiryTag || card.track !== null ? card.expiry : null,
    panSequence: card.sequence === null ? null : `0${card.sequence}`,
    track2: card.track === null ? null : `${card.pan}=${card.expiry}${card.track}`,
    icc: iccItems(card).length === 0 ? null : encodeTlv(iccItems(card)).toString('hex').toUpperCase(),
  };
}

const target = (format: JsonHostFormat) =>
  fc.record({ hostMessageFormat: fc.constant(format), connUrl: fc.constant(null), acptId: fc.constant('acpt_test'), mid: validMid(), tid: validTid() });

/** The originals each follow-up acts on in every JSON format (README, "JSON formats"), with the MTI such an original was sent with. */
const ORIGINAL_KINDS = {
  capture: ['PREAUTH'],
  refund: ['SALE', 'CAPTURE'],
  void: ['SALE', 'PREAUTH', 'CAPTURE', 'REFUND'],
  reverse: ['SALE', 'PREAUTH', 'CAPTURE', 'REFUND'],
} as const;
type FollowUpOperation = keyof typeof ORIGINAL_KINDS;
type OriginalKind = (typeof ORIGINAL_KINDS)[FollowUpOperation][number];
const MTI_OF: Record<OriginalKind, string> = { SALE: '0200', PREAUTH: '0100', CAPTURE: '0220', REFUND: '0200' };
/** Without a kind (callers older than issue 16) the original is read from its MTI. */
const KIND_OF_MTI: Record<string, OriginalKind> = { '0200': 'SALE', '0100': 'PREAUTH', '0220': 'CAPTURE' };

const originalArbitrary = (operation: FollowUpOperation): fc.Arbitrary<HostOriginalV1> =>
  fc
    .record({
      kind: fc.constantFrom(...ORIGINAL_KINDS[operation]),
      named: fc.boolean(),
      stan,
      transmittedAt: contextArbitrary.map((context) => context.transmittedAt),
      rrn: fc.option(digits(12), { nil: null }),
      approvalCode: fc.option(fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHJKLMNPQRSTUVWXYZ'), minLength: 6, maxLength: 6 }), { nil: null }),
      // The host order the original was filed under (MPGS_AP), null when its reply had none, absent from older callers.
      orderId: fc.option(fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), { nil: null }), { nil: undefined }),
    })
    .map(({ kind, named, orderId, ...rest }) => ({ ...rest, mti: MTI_OF[kind], ...(named ? { kind } : {}), ...(orderId !== undefined ? { orderId } : {}) }));

const totalsArbitrary = (maxMinor: bigint): fc.Arbitrary<HostTotalsV1> =>
  fc.record({
    saleCount: fc.nat(999_999),
    saleMinor: fc.bigInt({ min: 0n, max: maxMinor }).map(String),
    refundCount: fc.nat(999_999),
    refundMinor: fc.bigInt({ min: 0n, max: maxMinor }).map(String),
  });

/** One request of any operation, as a caller gives it to the connector, and the card behind an authorisation. */
type Drawn =
  | { operation: 'authorize'; request: HostRequestOf['authorize']; card: CardDrawn; context: WireContext }
  | { operation: FollowUpOperation; request: HostFollowUpRequestV1; context: WireContext }
  | { operation: 'settle'; request: HostRequestOf['settle']; context: WireContext }
  | { operation: 'signon' | 'echo' | 'keyexchange'; request: HostRequestOf['signon']; context: WireContext };

const requestId = fc.constant('req-property');

function drawnArbitrary(format: JsonHostFormat, totalsMax = 10n ** 16n - 1n): fc.Arbitrary<Drawn> {
  const base = { target: target(format), context: contextArbitrary, requestId };
  return fc.oneof(
    fc
      .record({ ...base, kind: fc.constantFrom('SALE' as const, 'PREAUTH' as const), amount, card: cardArbitrary })
      .map(({ target: t, context, requestId: id, kind, amount: money, card }) => ({
        operation: 'authorize' as const,
        request: { requestId: id, target: t, kind, amount: money, card: { emvTlv: cardTlv(card), entryMode: 'NFC' as const }, merchant: merchant() },
        card,
        context,
      })),
    fc.constantFrom(...(Object.keys(ORIGINAL_KINDS) as FollowUpOperation[])).chain((operation) =>
      fc.record({ ...base, amount, original: originalArbitrary(operation) }).map(({ target: t, context, requestId: id, amount: money, original }) => ({
        operation,
        request: { requestId: id, target: t, amount: money, original, merchant: merchant() },
        context,
      })),
    ),
    fc
      .record({ ...base, batchNo: digits(6), currency, totals: totalsArbitrary(totalsMax) })
      .map(({ target: t, context, requestId: id, batchNo, currency: numeric, totals }) => ({
        operation: 'settle' as const,
        request: { requestId: id, target: t, batchNo, currency: numeric, totals, merchant: merchant() },
        context,
      })),
    fc
      .record({ ...base, operation: fc.constantFrom('signon' as const, 'echo' as const, 'keyexchange' as const) })
      .map(({ target: t, context, requestId: id, operation }) => ({
        operation,
        request: { requestId: id, target: t },
        context,
      })),
  );
}

// ---------------------------------------------------------------- the two sides

/** The simulator's route for a path the dialect built, with its parameters decoded as the HTTP server decodes them. */
function simulatorRead(format: JsonHostFormat, built: { method: string; path: string; body: unknown }): ReadCall {
  const segments = built.path.split('/');
  for (const route of wireOf(format).routes) {
    const template = route.url.split('/');
    if (route.method !== built.method || template.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = template.every((part, index) => {
      if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(segments[index]);
      return part.startsWith(':') || part === segments[index];
    });
    if (matches) return route.read(params, new WireBody(JSON.parse(JSON.stringify(built.body))));
  }
  throw new Error(`${format} has no route for ${built.method} ${built.path}`);
}

/** What the simulator read, with amounts as minor-unit strings and currencies as ISO numeric codes, to compare with what the request said. */
function meaningOf(call: JsonHostCall): Record<string, unknown> {
  const seen: Record<string, unknown> = { ...call };
  if ('money' in call) seen.money = call.money === null ? null : { minor: call.money.minor.toString(), currency: call.money.currency.numeric };
  if ('currency' in call) seen.currency = call.currency.numeric;
  return seen;
}

const FOLLOW_UP_KIND = { capture: 'CAPTURE', refund: 'REFUND', void: 'VOID' } as const;

/** What a request must mean to a host of `format`, from the formats' description. */
function expectedMeaning(format: JsonHostFormat, drawn: Drawn): Record<string, unknown> {
  const { target: t } = drawn.request;
  const { context } = drawn;
  const ref = (of: { transmittedAt: string; stan: string }) => `${t.tid}-${of.transmittedAt}-${of.stan}`;
  const mpgs = format === 'MPGS_AP';
  const fullTrace = { stan: context.stan, transmittedAt: context.transmittedAt, localTime: context.localTime, localDate: context.localDate };
  // MPGS_AP traces transactions only, and without local time; its batch and gateway calls carry none.
  const transactionTrace = mpgs ? { ...fullTrace, localTime: null, localDate: null } : fullTrace;
  const callTrace = mpgs ? null : fullTrace;
  const terminal = { mid: t.mid, tid: t.tid };
  switch (drawn.operation) {
    case 'authorize':
      return {
        ...terminal,
        trace: transactionTrace,
        call: 'authorization',
        kind: drawn.request.kind,
        ref: ref(context),
        money: drawn.request.amount,
        card: cardMeaning(drawn.card),
      };
    case 'capture':
    case 'refund':
    case 'void':
    case 'reverse': {
      const { original, amount: money } = drawn.request;
      const kind = original.kind ?? KIND_OF_MTI[original.mti];
      const kinds: Record<JsonHostFormat, readonly string[] | null> = {
        MPGS_AP: null,
        POMELO_JSON: [kind],
        EZ_AIO: [kind],
        // A payment holds sales and pre-authorisations, an operation captures and refunds.
        EZ_WALLET: kind === 'SALE' || kind === 'PREAUTH' ? ['SALE', 'PREAUTH'] : ['CAPTURE', 'REFUND'],
      };
      // MPGS_AP files a capture or refund under the order (its authorisation's, or the original's own
      // reference when the caller names none) and names a voided or reversed transaction itself.
      const byOrder = mpgs && (drawn.operation === 'capture' || drawn.operation === 'refund');
      const seenOriginal = {
        ref: byOrder ? (original.orderId ?? ref(original)) : ref(original),
        ...(byOrder ? { order: true } : {}),
        kinds: kinds[format],
        stan: format === 'EZ_AIO' ? original.stan : null,
        rrn: mpgs ? null : original.rrn,
        approvalCode: mpgs ? null : original.approvalCode,
      };
      // An MPGS_AP VOID (and a reversal, which is one) carries no amount.
      const seenMoney = mpgs && (drawn.operation === 'void' || drawn.operation === 'reverse') ? null : money;
      const common = { ...terminal, trace: transactionTrace, ref: ref(context), money: seenMoney, original: seenOriginal };
      return drawn.operation === 'reverse' ? { ...common, call: 'reversal' } : { ...common, call: 'follow-up', kind: FOLLOW_UP_KIND[drawn.operation] };
    }
    case 'settle':
      return {
        ...terminal,
        trace: callTrace,
        call: 'settlement',
        batch: drawn.request.batchNo,
        currency: drawn.request.currency,
        totals: drawn.request.totals,
      };
    case 'signon':
    case 'echo':
    case 'keyexchange':
      return { ...terminal, trace: callTrace, call: 'network', word: { signon: 'SIGN_ON', echo: 'ECHO', keyexchange: 'KEY_EXCHANGE' }[drawn.operation] };
  }
}

/** Builds with the connector's dialect; null when the dialect refuses what its format cannot carry (an integer amount above 2^53). */
function built(format: JsonHostFormat, drawn: Drawn): { method: string; path: string; body: Record<string, unknown> } | null {
  try {
    return dialectOf(format).buildHttpRequest(drawn.operation, drawn.request as never, drawn.context);
  } catch (error) {
    const integerFormat = format === 'POMELO_JSON' || format === 'EZ_WALLET';
    const unsafe =
      drawn.operation === 'settle' &&
      [drawn.request.totals.saleMinor, drawn.request.totals.refundMinor].some((minor) => BigInt(minor) > BigInt(Number.MAX_SAFE_INTEGER));
    if (error instanceof HostProtocolError && integerFormat && unsafe) return null;
    throw error;
  }
}

// ---------------------------------------------------------------- outcomes

const rrn = digits(12);
const approvalCode = fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHJKLMNPQRSTUVWXYZ'), minLength: 6, maxLength: 6 });
const ACKNOWLEDGED: HostOutcome = { code: '00', rrn: null, approvalCode: null, hostTotals: null };

/** An outcome the host's books can give a call: its codes (README of the simulator, "What it answers") and references. */
function outcomeArbitrary(call: JsonHostCall): fc.Arbitrary<HostOutcome> {
  switch (call.call) {
    case 'authorization':
    case 'follow-up':
      return fc
        .constantFrom('00', '05', '12', '13', '25', '51')
        .chain((code) =>
          fc.record({ code: fc.constant(code), rrn, approvalCode: code === '00' ? approvalCode : fc.constant(null), hostTotals: fc.constant(null) }),
        );
    case 'settlement':
      return fc.record({
        code: fc.constantFrom('00', '95'),
        rrn: fc.constant(null),
        approvalCode: fc.constant(null),
        hostTotals: totalsArbitrary(BigInt(Number.MAX_SAFE_INTEGER)),
      });
    case 'reversal':
    case 'network':
      return fc.constant(ACKNOWLEDGED);
  }
}

function parsed(format: JsonHostFormat, operation: HostOperation, status: number, body: unknown): HostAnswer {
  return dialectOf(format).parseHttpResponse(operation, status, JSON.parse(JSON.stringify(body)));
}

// ---------------------------------------------------------------- properties

describe.each(FORMATS)('%s: connector and simulator map the format independently', (format) => {
  it('should read every request the connector builds to what the request said: amount, currency, references, card', () => {
    fc.assert(
      fc.property(drawnArbitrary(format), (drawn) => {
        const request = built(format, drawn);
        if (request === null) return;
        expect(meaningOf(simulatorRead(format, request).call)).toEqual(expectedMeaning(format, drawn));
      }),
      { numRuns: 300 },
    );
  });

  it('should answer so that the connector reads the outcome the host decided: approved or declined with its code and references, totals, never partial', () => {
    fc.assert(
      fc.property(
        drawnArbitrary(format, BigInt(Number.MAX_SAFE_INTEGER)).chain((drawn) => {
          const read = simulatorRead(format, built(format, drawn)!);
          return fc.tuple(fc.constant(drawn), fc.constant(read), outcomeArbitrary(read.call));
        }),
        ([drawn, read, outcome]) => {
          const answer = parsed(format, drawn.operation, 200, read.answer(outcome));
          expect(answer).toMatchObject({ hostRespCode: outcome.code, approved: outcome.code === '00', rrn: outcome.rrn, approvalCode: outcome.approvalCode });
          expect(answer.approvedAmount).toBeUndefined();
          if (drawn.operation === 'settle') expect(answer.hostTotals).toEqual(outcome.hostTotals);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('should refuse a request it cannot read with the format 400 answer, which the connector reads as a format error (30) that approves nothing', () => {
    fc.assert(
      fc.property(drawnArbitrary(format, BigInt(Number.MAX_SAFE_INTEGER)), (drawn) => {
        const request = built(format, drawn)!;
        // The first field of every body names the call (apiOperation, transaction_id, msgType, paymentId …): a number there is unreadable.
        const [first] = Object.keys(request.body);
        let refusal: WireRefusal | undefined;
        try {
          simulatorRead(format, { ...request, body: { ...request.body, [first]: 42 } });
        } catch (error) {
          if (error instanceof WireRefusal) refusal = error;
          else throw error;
        }
        expect(refusal?.message).toContain(first);
        expect(parsed(format, drawn.operation, 400, wireOf(format).refusal(refusal!.message))).toMatchObject({ hostRespCode: '30', approved: false });
      }),
      { numRuns: 200 },
    );
  });
});

// ---------------------------------------------------------------- mistakes the cross-check catches

type BuiltRequest = { method: string; path: string; body: Record<string, unknown> };

/** A copy of `request` with the body's value at a dotted path replaced by `change` of what was there. */
function changed(request: BuiltRequest, path: string, change: (value: unknown) => unknown): BuiltRequest {
  const body = JSON.parse(JSON.stringify(request.body)) as Record<string, unknown>;
  const keys = path.split('.');
  let holder = body;
  for (const key of keys.slice(0, -1)) holder = holder[key] as Record<string, unknown>;
  const last = keys[keys.length - 1];
  holder[last] = change(holder[last]);
  return { ...request, body };
}

const exponentOf = (numeric: string): number => CURRENCIES.find((info) => info.numeric === numeric)!.minorUnits;

/**
 * Mistakes a dialect could make in mapping a format, each applied to what the dialect built: if
 * the simulator took its mapping from the dialect, it would make the same mistake and agree.
 */
const MISTAKES: ReadonlyArray<{
  format: JsonHostFormat;
  mistake: string;
  operations: readonly HostOperation[];
  make: (request: BuiltRequest, drawn: Drawn) => BuiltRequest;
}> = [
  {
    format: 'MPGS_AP',
    mistake: 'the amount in minor units instead of the currency units',
    operations: ['authorize'],
    make: (request, drawn) => changed(request, 'order.amount', () => (drawn.request as HostRequestOf['authorize']).amount.minor),
  },
  {
    format: 'MPGS_AP',
    mistake: 'the expiry month and year swapped',
    operations: ['authorize'],
    make: (request) =>
      changed(
        request,
        'sourceOfFunds.provided.card.expiry',
        (expiry) => expiry && { month: (expiry as { year: string }).year, year: (expiry as { month: string }).month },
      ),
  },
  {
    format: 'MPGS_AP',
    mistake: 'a reversal sent as a plain VOID, without the TIMEOUT_REVERSAL reference',
    operations: ['reverse'],
    make: (request) => changed(request, 'transaction.reference', () => undefined),
  },
  {
    format: 'POMELO_JSON',
    mistake: 'the amount in currency units instead of an integer of minor units',
    operations: ['authorize', 'capture', 'refund', 'void', 'reverse'],
    make: (request, drawn) => changed(request, 'amount', (value) => Number(value) / 10 ** exponentOf((drawn.request as HostFollowUpRequestV1).amount.currency)),
  },
  {
    format: 'POMELO_JSON',
    mistake: "the follow-up's own type as the original's",
    operations: ['capture', 'refund'],
    make: (request) => changed(request, 'original.type', () => request.body.type),
  },
  {
    format: 'EZ_AIO',
    mistake: 'the currency as ISO alpha instead of numeric',
    operations: ['authorize', 'capture', 'refund', 'void', 'reverse'],
    make: (request) => changed(request, 'currencyCode', (numeric) => currencyCodes.number(String(numeric))!.code),
  },
  {
    format: 'EZ_AIO',
    mistake: "the follow-up's own STAN as the original's",
    operations: ['capture', 'refund', 'void', 'reverse'],
    make: (request) => changed(request, 'originalTxn.traceNo', () => request.body.traceNo),
  },
  {
    format: 'EZ_WALLET',
    mistake: 'every follow-up posted under /payments, also of a capture or a refund',
    operations: ['capture', 'refund', 'void', 'reverse'],
    make: (request) => ({ ...request, path: request.path.replace('/wallet/v1/operations/', '/wallet/v1/payments/') }),
  },
  ...FORMATS.map((format) => ({
    format,
    mistake: "track 2 with the card's D separator instead of =",
    operations: ['authorize'] as const,
    make: (request: BuiltRequest) => {
      const path = { MPGS_AP: 'sourceOfFunds.provided.card.track2', POMELO_JSON: 'card.track2', EZ_AIO: 'card.track2', EZ_WALLET: 'instrument.track2' }[format];
      return changed(request, path, (track) => (typeof track === 'string' ? track.replace('=', 'D') : track));
    },
  })),
];

describe.each(MISTAKES)('$format: a dialect that sent $mistake', ({ format, operations, make }) => {
  it('should be refused or read otherwise by the simulator, not understood by the same mistake', () => {
    const drawnOfOperations = drawnArbitrary(format, BigInt(Number.MAX_SAFE_INTEGER)).filter((drawn) => operations.includes(drawn.operation));
    fc.assert(
      fc.property(drawnOfOperations, (drawn) => {
        const request = built(format, drawn)!;
        const mistaken = make(request, drawn);
        // Some values read the same either way (an amount in a currency without decimals, an expiry of the same month and year, a card without track 2).
        fc.pre(JSON.stringify(mistaken) !== JSON.stringify(request));
        let meaning: Record<string, unknown> | 'refused';
        try {
          meaning = meaningOf(simulatorRead(format, mistaken).call);
        } catch (error) {
          if (!(error instanceof WireRefusal)) throw error;
          meaning = 'refused';
        }
        expect(meaning).not.toEqual(expectedMeaning(format, drawn));
      }),
      { numRuns: 100 },
    );
  });
});
