import { unique } from '@app/testing';
import { freePort, startSilentServer, startSmtpTestServer, SmtpTestServer } from '@app/testing/smtp-test-server';
import fc from 'fast-check';
import { approvedSale, declinedSale, terminal } from './factories';
import { dataOf, expectError, Pbo, startTransactions, TransactionsTestApp } from './support';

/**
 * `POST /api/v2/order/email/{id}` (the receipt) and `POST /api/v2/settlement/email` (the report,
 * its orders as a CSV attachment), delivered to a real SMTP server started here.
 */

function recipient(): string {
  return `${unique('owner-')}@merchant.example`;
}

describe('receipts and settlement reports by e-mail', () => {
  let smtp: SmtpTestServer;
  let app: TransactionsTestApp;
  let pbo: Pbo;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    app = await startTransactions({ platform: { mail: { transport: 'smtp', url: `smtp://127.0.0.1:${smtp.port}` } } });
    pbo = await app.newPbo();
  });

  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  const to = (address: string) => smtp.received.filter((mail) => mail.envelope.to.includes(address));

  describe('receipt', () => {
    it('should send the receipt as text and HTML with what happened, to which masked card, and the host references', async () => {
      const shop = terminal({ merchantName: 'Kedai <Kopi> & "Roti"' });
      const sale = await app.gateway.take(pbo.groupId, approvedSale({ terminal: shop, minor: 1250, createdAt: new Date(Date.UTC(2026, 0, 31, 8, 15)) }));
      await app.settled();
      const email = recipient();

      dataOf(await pbo.post(`/api/v2/order/email/${sale.tranId}`, { email }));

      const [mail, ...more] = to(email);
      expect(more).toEqual([]);
      expect(mail.parsed.subject).toBe('Receipt from Kedai <Kopi> & "Roti": SALE APPROVED MYR 12.50');
      const text = mail.parsed.text ?? '';
      for (const shown of [
        'Kedai <Kopi> & "Roti"',
        '2026-01-31 08:15:00 UTC',
        'MYR 12.50',
        'VISA 476173******0119',
        sale.approvalCode,
        sale.rrn,
        shop.primaryTid,
        sale.tranId,
      ]) {
        expect(text).toContain(shown);
      }
      const html = String(mail.parsed.html);
      expect(html).toContain('Kedai &lt;Kopi&gt; &amp; &quot;Roti&quot;');
      expect(html).not.toContain('<Kopi>');
      expect(html).toContain('476173******0119');
    });

    it("should print the merchant's local time with its zone named, and label the cryptogram an ARQC, in the text and the HTML", async () => {
      const sale = await app.gateway.take(pbo.groupId, {
        ...approvedSale({ minor: 800, createdAt: new Date(Date.UTC(2026, 0, 31, 20, 5, 9)) }),
        timeZone: 'Asia/Kuala_Lumpur',
      });
      await app.settled();
      const email = recipient();

      dataOf(await pbo.post(`/api/v2/order/email/${sale.tranId}`, { email }));

      const [mail] = to(email);
      const text = mail.parsed.text ?? '';
      const html = String(mail.parsed.html);
      // 20:05:09 UTC is the next day at 04:05:09 in Kuala Lumpur.
      expect(text).toMatch(/^Date {2,}2026-02-01 04:05:09 Asia\/Kuala_Lumpur \(UTC\+08:00\)$/m);
      expect(html).toContain('2026-02-01 04:05:09 Asia/Kuala_Lumpur (UTC+08:00)');
      expect(text).not.toContain('UTC\n');
      expect(text).toMatch(new RegExp(`^ARQC {2,}${sale.tc}$`, 'm'));
      expect(html).toMatch(new RegExp(`ARQC</t[hd]>\\s*<td>${sale.tc}<`));
      expect(text).not.toMatch(/^TC /m);
    });

    it('should send the receipt of a declined sale too', async () => {
      const sale = await app.gateway.take(pbo.groupId, declinedSale({ minor: 990 }));
      await app.settled();
      const email = recipient();

      dataOf(await pbo.post(`/api/v2/order/email/${sale.tranId}`, { email }));

      expect(to(email)[0].parsed.subject).toMatch(/: SALE DECLINED MYR 9\.90$/);
    });

    it("should refuse a bad address (400), another PBO's order (403) and an unknown one (404), sending nothing", async () => {
      const sale = await app.gateway.take(pbo.groupId, approvedSale());
      await app.settled();
      const other = await app.newPbo();
      const before = smtp.received.length;

      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ maxLength: 40 }).filter((s) => !s.includes('@')),
            fc.constantFrom('a@', '@b.example', 'a b@c.example', 'x\u0000@y.example', 42, null),
          ),
          async (email) => {
            const response = await pbo.post(`/api/v2/order/email/${sale.tranId}`, { email });
            expect({ status: response.status, code: response.body.code, named: response.body.msg.startsWith('email ') }).toEqual({
              status: 400,
              code: 10000,
              named: true,
            });
          },
        ),
        { numRuns: 40 },
      );
      expectError(
        await other.post(`/api/v2/order/email/${sale.tranId}`, { email: recipient() }),
        403,
        13000,
        `owner info invalid: order ${sale.tranId} belongs to another PBO`,
      );
      expectError(
        await pbo.post(`/api/v2/order/email/tran_${'0'.repeat(22)}`, { email: recipient() }),
        404,
        14000,
        `order tran_${'0'.repeat(22)} does not exist`,
      );
      expect(smtp.received.length).toBe(before);
    });
  });

  describe('settlement report', () => {
    const MCH_ID = '123456789012345';

    async function batchWith(minors: number[]): Promise<{ batchId: string; tranIds: string[] }> {
      const shop = terminal({ merchantName: '=HYPERLINK("http://evil.example")' });
      const tranIds: string[] = [];
      // A second apart: the CSV lists a batch's orders oldest first.
      const start = Date.now();
      for (const [index, minor] of minors.entries()) {
        tranIds.push((await app.gateway.take(pbo.groupId, approvedSale({ terminal: shop, minor, createdAt: new Date(start + index * 1000) }), MCH_ID)).tranId);
      }
      await app.settled();
      const page = dataOf(await pbo.get<{ records: Array<{ batchId: string; acquirerTid: string }> }>('/api/v2/settlement?pageSize=-1'));
      return { batchId: page.records.find((record) => record.acquirerTid === shop.primaryTid)!.batchId, tranIds };
    }

    it('should send the report of the listed batches with every booking in an attached CSV, formulas neutralised', async () => {
      const first = await batchWith([1000, 2000]);
      const second = await batchWith([550]);
      const email = recipient();

      dataOf(
        await pbo.post('/api/v2/settlement/email', {
          batchIds: JSON.stringify([{ batchId: first.batchId }, { batchId: second.batchId }]),
          email,
          mchId: MCH_ID,
        }),
      );

      const [mail] = to(email);
      expect(mail.parsed.subject).toBe(`Settlement report of =HYPERLINK("http://evil.example") (merchant ${MCH_ID}): 2 batches`);
      expect(mail.parsed.text).toContain(`${first.batchId} (terminal batch 000001)`);
      expect(mail.parsed.text).toContain('2, MYR 30.00');
      expect(mail.parsed.text).toContain('1, MYR 5.50');
      expect(mail.parsed.attachments.map((attachment) => [attachment.filename, attachment.contentType])).toEqual([
        [expect.stringMatching(/^settlement-\d{4}-\d\d-\d\d\.csv$/), 'text/csv'],
      ]);
      const lines = mail.parsed.attachments[0].content.toString('utf8').trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'batchId,batchNo,acquirerMid,acquirerTid,kind,amount,bookedAt,actionId,tranId,tranType,tranStatus,createdAt,paymentMethod,accountMasked,currency,approvedAmount,capturedAmount,refundedAmount,approvalCode,rrn,trace,mchName',
      );
      expect(
        lines
          .slice(1)
          .map((line) => line.split(','))
          .map((fields) => [fields[0], fields[4], fields[5], fields[8]]),
      ).toEqual([
        [first.batchId, 'SALE', '10.00', first.tranIds[0]],
        [first.batchId, 'SALE', '20.00', first.tranIds[1]],
        [second.batchId, 'SALE', '5.50', second.tranIds[0]],
      ]);
      // A spreadsheet opening the file must not run the merchant name as a formula.
      expect(lines[1].endsWith(',"\'=HYPERLINK(""http://evil.example"")"')).toBe(true);
      expect(mail.parsed.html).toContain('=HYPERLINK(&quot;http://evil.example&quot;)');
    });

    it('should take batchIds as an array too, and refuse malformed lists naming the field', async () => {
      const { batchId } = await batchWith([100]);
      const email = recipient();
      dataOf(await pbo.post('/api/v2/settlement/email', { batchIds: [{ batchId }], email, mchId: MCH_ID }));
      expect(to(email)).toHaveLength(1);

      const bad: Array<[unknown, string]> = [
        ['not json', 'batchIds must be a JSON-encoded array of {batchId}'],
        ['{"batchId":"B123"}', 'batchIds must be a JSON-encoded array of {batchId}'],
        ['[]', 'batchIds must contain at least 1 elements'],
        ['[[]]', 'batchIds must be a JSON-encoded array of {batchId}'],
        [JSON.stringify([{ batchId }, 'B123456789012345']), 'batchIds must be a JSON-encoded array of {batchId}'],
        [JSON.stringify([{ batchId }, { batchId: 'B1' }]), 'batchIds[1].batchId must be a batch id (B and 15 digits)'],
        [JSON.stringify([{ batchId, extra: 1 }]), 'batchIds[0].extra is not an accepted field'],
        [JSON.stringify(Array.from({ length: 101 }, () => ({ batchId }))), 'batchIds must contain no more than 100 elements'],
        [undefined, 'batchIds is required'],
      ];
      for (const [batchIds, msg] of bad) expectError(await pbo.post('/api/v2/settlement/email', { batchIds, email, mchId: MCH_ID }), 400, 10000, msg);
      await fc.assert(
        fc.asyncProperty(fc.json(), async (batchIds) => {
          const response = await pbo.post('/api/v2/settlement/email', { batchIds, email, mchId: MCH_ID });
          expect([400, 404]).toContain(response.status);
          expect(response.body.code === 10000 ? response.body.msg.startsWith('batchIds') : response.body.code === 14000).toBe(true);
        }),
        { numRuns: 200 },
      );
    });

    it('should refuse a batch of another merchant or another PBO (403) and send nothing', async () => {
      const { batchId } = await batchWith([100]);
      const email = recipient();
      expectError(
        await pbo.post('/api/v2/settlement/email', { batchIds: JSON.stringify([{ batchId }]), email, mchId: '999999999999999' }),
        403,
        13000,
        `owner info invalid: batch ${batchId} belongs to another merchant`,
      );
      const other = await app.newPbo();
      expectError(
        await other.post('/api/v2/settlement/email', { batchIds: JSON.stringify([{ batchId }]), email, mchId: MCH_ID }),
        403,
        13000,
        `owner info invalid: batch ${batchId} belongs to another PBO`,
      );
      expect(to(email)).toEqual([]);
    });
  });

  it('should answer 504 (15000) when the mail server does not answer in time, and 502 when it cannot be reached', async () => {
    const silent = await startSilentServer();
    const hung = await startTransactions({ platform: { mail: { transport: 'smtp', url: `smtp://127.0.0.1:${silent.port}` } } });
    try {
      const owner = await hung.newPbo();
      const sale = await hung.gateway.take(owner.groupId, approvedSale());
      await hung.settled();
      expectError(await owner.post(`/api/v2/order/email/${sale.tranId}`, { email: recipient() }), 504, 15000, /^the e-mail could not be sent: .*\(timeout\)/);
    } finally {
      await hung.close();
      await silent.close();
    }
    const closed = await startTransactions({ platform: { mail: { transport: 'smtp', url: `smtp://127.0.0.1:${await freePort()}` } } });
    try {
      const owner = await closed.newPbo();
      const sale = await closed.gateway.take(owner.groupId, approvedSale());
      await closed.settled();
      expectError(
        await owner.post(`/api/v2/order/email/${sale.tranId}`, { email: recipient() }),
        502,
        15000,
        /^the e-mail could not be sent: .*\(unreachable\)/,
      );
    } finally {
      await closed.close();
    }
  });
});
