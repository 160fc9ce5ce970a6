import { ApiClient, EnvelopeBody, HttpResponse, queryDatabase, unique } from '@app/testing';
import { AddressObject, simpleParser } from 'mailparser';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSilentServer, startSmtpTestServer, SmtpTestServer } from '@app/testing/smtp-test-server';
import { createCardAcquirer, createMerchant, MerchantView } from './factories';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * `POST /api/openapi/v1/device/code` e-mails an activation code that can still be used
 * (docs/decisions.md "Devices and activation codes", "E-mail"), delivered to a real SMTP server
 * started here, or written as an `.eml` file without SMTP.
 */

const V1 = '/api/openapi/v1';

type Pbo = ApiClient & { groupId: string };

interface Created {
  id: string;
  activationCode: string;
  profileId: string | null;
}

function expectError(response: HttpResponse<EnvelopeBody>, status: number, code: number, msg: RegExp = /\S/): void {
  expect({ status: response.status, code: response.body.code, msg: response.body.msg }).toEqual({ status, code, msg: expect.stringMatching(msg) });
}

/** How the mail prints a code: three groups of four digits. */
function grouped(code: string): string {
  return `${code.slice(0, 4)} ${code.slice(4, 8)} ${code.slice(8)}`;
}

function addresses(field: AddressObject | AddressObject[] | undefined): { name: string; address?: string }[] {
  return (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) => object.value.map(({ name, address }) => ({ name, address })));
}

function recipient(): string {
  return `${unique('owner-')}@merchant.example`;
}

async function onboard(app: MerchantManagementTestApp): Promise<{ pbo: Pbo; merchant: MerchantView }> {
  const pbo = await app.newPbo();
  await createCardAcquirer(pbo, ['01'], { asDefault: true });
  const merchant = await createMerchant(pbo, { country: 'MY' });
  return { pbo, merchant };
}

async function newCode(pbo: Pbo, merchant: MerchantView): Promise<Created> {
  return dataOf<Created>(await pbo.post(`${V1}/device`, { mchId: merchant.mchId }));
}

function mailCode(pbo: Pbo, deviceId: string, email: unknown) {
  return pbo.post(`${V1}/device/code`, { deviceId, email });
}

describe('e-mailing activation codes over SMTP', () => {
  let smtp: SmtpTestServer;
  let smtpUrl: string;
  let app: MerchantManagementTestApp;
  let pbo: Pbo;
  let merchant: MerchantView;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    smtpUrl = `smtp://127.0.0.1:${smtp.port}`;
    app = await startMerchantManagement({ mail: { transport: 'smtp', url: smtpUrl } });
    ({ pbo, merchant } = await onboard(app));
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  const to = (address: string) => smtp.received.filter((mail) => mail.envelope.to.includes(address));

  it('should send one message with the grouped code, the merchant name and mchId to the address given', async () => {
    const created = await newCode(pbo, merchant);
    const email = recipient();
    const response = await mailCode(pbo, created.id, email);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: 0 });

    const messages = to(email);
    expect(messages).toHaveLength(1);
    const [mail] = messages;
    expect(mail.envelope.to).toEqual([email]);
    expect(addresses(mail.parsed.to)).toEqual([{ name: '', address: email }]);
    expect(mail.parsed.subject).toBe(`Your activation code for ${merchant.mchName}`);
    const text = mail.parsed.text ?? '';
    expect(text).toContain(grouped(created.activationCode));
    expect(text).toContain(merchant.mchName as string);
    expect(text).toContain(merchant.mchId);
    expect(text).toMatch(/expires on \d{4}-\d{2}-\d{2}/);
    // Without a PBO sender, the deployment's default sender.
    expect(addresses(mail.parsed.from)).toEqual([{ name: 'SoftPOS', address: 'no-reply@softpos.local' }]);
    expect(mail.envelope.from).toBe('no-reply@softpos.local');

    // Sending the code changes nothing about it.
    const device = dataOf<{ deviceStatus: number; deviceId: string }>(await pbo.get(`${V1}/device/${created.id}`));
    expect(device).toMatchObject({ deviceId: created.id, deviceStatus: 0 });
  });

  it('should name the code by its bare 12 digits as well as by its CD- id', async () => {
    const created = await newCode(pbo, merchant);
    const email = recipient();
    dataOf(await mailCode(pbo, created.activationCode, email));
    expect(to(email)).toHaveLength(1);
    expect(to(email)[0].parsed.text).toContain(grouped(created.activationCode));
  });

  it("should send from the PBO's emailSender when it has one", async () => {
    const sender = await app.newPbo();
    await queryDatabase(app.database.url, `UPDATE merchant_management.pbo SET email_sender = $2::jsonb WHERE group_id = $1`, [
      sender.groupId,
      JSON.stringify({ name: 'Acme Pay', address: 'activation@acme-pay.example' }),
    ]);
    await createCardAcquirer(sender, ['01'], { asDefault: true });
    const senderMerchant = await createMerchant(sender);
    const created = await newCode(sender, senderMerchant);
    const email = recipient();
    dataOf(await mailCode(sender, created.id, email));
    const [mail] = to(email);
    expect(addresses(mail.parsed.from)).toEqual([{ name: 'Acme Pay', address: 'activation@acme-pay.example' }]);
    expect(mail.parsed.text).toContain(grouped(created.activationCode));
  });

  it('should e-mail an idled code (it can be activated again), named by its device id', async () => {
    const created = await newCode(pbo, merchant);
    const activation = dataOf<{ deviceId: string }>(await app.anonymous.post('/api/sdk/v1/activate', { activationCode: created.activationCode }));
    dataOf(await pbo.delete(`${V1}/device/${activation.deviceId}/idle`));
    const email = recipient();
    dataOf(await mailCode(pbo, activation.deviceId, email));
    expect(to(email)).toHaveLength(1);
    expect(to(email)[0].parsed.text).toContain(grouped(created.activationCode));
  });

  it('should refuse an activated code with 409 and send nothing', async () => {
    const created = await newCode(pbo, merchant);
    const activation = dataOf<{ deviceId: string }>(await app.anonymous.post('/api/sdk/v1/activate', { activationCode: created.activationCode }));
    const before = smtp.received.length;
    const email = recipient();
    expectError(await mailCode(pbo, created.id, email), 409, 10000, /already used/);
    expectError(await mailCode(pbo, activation.deviceId, email), 409, 10000);
    expect(smtp.received).toHaveLength(before);
  });

  it("should answer another PBO's code as an unknown one, 14000 (404), and send nothing", async () => {
    const created = await newCode(pbo, merchant);
    const other = await app.newPbo();
    const before = smtp.received.length;
    expectError(await mailCode(other, created.id, recipient()), 404, 14000);
    expect(smtp.received).toHaveLength(before);
  });

  it('should refuse an unknown code with 14000 (404) and send nothing', async () => {
    const before = smtp.received.length;
    expectError(await mailCode(pbo, 'CD-000000000000', recipient()), 404, 14000);
    expect(smtp.received).toHaveLength(before);
  });

  it.each([['not-an-email'], [''], ['owner@'], ['a@example.com\r\nBcc: thief@evil.example'], [42], [null]])(
    'should refuse the e-mail address %p with 10000 (400) and send nothing',
    async (email) => {
      const created = await newCode(pbo, merchant);
      const before = smtp.received.length;
      expectError(await mailCode(pbo, created.id, email), 400, 10000, /email/);
      expect(smtp.received).toHaveLength(before);
    },
  );

  it('should refuse a body without email with 10000 (400)', async () => {
    const created = await newCode(pbo, merchant);
    expectError(await pbo.post(`${V1}/device/code`, { deviceId: created.id }), 400, 10000, /email/);
  });

  // Last: it stops the SMTP server.
  it('should answer 502 / 15000 with a clear message when the SMTP server is down, and nothing else breaks', async () => {
    const created = await newCode(pbo, merchant);
    await smtp.close();
    const response = await mailCode(pbo, created.id, recipient());
    expectError(response, 502, 15000, /e-mail could not be sent/);
    expect(response.body.msg).toContain(`127.0.0.1:${smtp.port}`);
    expect(response.body.msg).not.toMatch(/\n\s+at /);
    expect(response.body.msg).not.toContain(created.activationCode);

    // The code is untouched and still activates; the rest of the API answers.
    expect(dataOf<{ deviceStatus: number }>(await pbo.get(`${V1}/device/${created.id}`))).toMatchObject({ deviceStatus: 0 });
    dataOf(await pbo.get('/api/v2/current'));
    const another = await newCode(pbo, merchant);
    expect(another.activationCode).toMatch(/^\d{12}$/);
    dataOf(await app.anonymous.post('/api/sdk/v1/activate', { activationCode: created.activationCode }));
  });
});

describe('e-mailing activation codes to an SMTP server that never answers', () => {
  let silent: { port: number; close(): Promise<void> };
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    silent = await startSilentServer();
    app = await startMerchantManagement({ mail: { transport: 'smtp', url: `smtp://127.0.0.1:${silent.port}` } });
  });
  afterAll(async () => {
    await app.close();
    await silent.close();
  });

  it('should answer 504 / 15000 after the greeting timeout', async () => {
    const { pbo, merchant } = await onboard(app);
    const created = await newCode(pbo, merchant);
    const started = Date.now();
    const response = await mailCode(pbo, created.id, recipient());
    expectError(response, 504, 15000, /e-mail could not be sent/);
    // 5-second connect and greeting timeouts.
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(dataOf<{ deviceStatus: number }>(await pbo.get(`${V1}/device/${created.id}`))).toMatchObject({ deviceStatus: 0 });
  }, 20_000);
});

describe('e-mailing activation codes without SMTP (file transport)', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  it('should write one .eml file holding the code', async () => {
    const directory = (app.options.mail as { transport: 'file'; directory: string }).directory;
    expect(app.options.mail.transport).toBe('file');
    const { pbo, merchant } = await onboard(app);
    const created = await newCode(pbo, merchant);
    const email = recipient();
    dataOf(await mailCode(pbo, created.id, email));

    const files = (await readdir(directory)).filter((file) => file.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const raw = await readFile(join(directory, files[0]));
    expect(raw.toString('latin1')).toContain(grouped(created.activationCode));
    const mail = await simpleParser(raw);
    expect(addresses(mail.to)).toEqual([{ name: '', address: email }]);
    expect(mail.subject).toBe(`Your activation code for ${merchant.mchName}`);
    expect(mail.text).toContain(grouped(created.activationCode));
    expect(mail.text).toContain(merchant.mchId);
  });
});
