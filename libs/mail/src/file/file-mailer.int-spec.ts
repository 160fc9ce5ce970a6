import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AddressObject, simpleParser } from 'mailparser';
import { MailDeliveryError } from '../mail-delivery-error';
import { FileMailer, emlFileName } from './file-mailer';

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  return (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) => object.value.map((mailbox) => mailbox.address ?? ''));
}

describe('FileMailer', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'softpos-mail-'));
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('should write each message as a parseable .eml file in a folder it creates', async () => {
    const directory = join(dataDir, 'mail');
    const mailer = new FileMailer({ directory, defaultFrom: { name: 'SoftPOS', address: 'no-reply@softpos.local' } });

    const first = await mailer.send({
      to: ['merchant@example.com'],
      subject: 'Aktivierungscode für Gerät ✓ 端末',
      text: 'Code: 123456789012 – gültig 30 Tage',
    });
    const second = await mailer.send({ to: ['ops@example.com', 'audit@example.com'], subject: 'Second', text: 'Second body', html: '<p>Second body</p>' });

    const files = (await readdir(directory)).sort();
    expect(files).toHaveLength(2);
    const parsed = await Promise.all(files.map(async (file) => simpleParser(await readFile(join(directory, file)))));
    const byId = new Map(parsed.map((mail) => [mail.messageId, mail]));
    const firstMail = byId.get(first.messageId);
    const secondMail = byId.get(second.messageId);
    expect(firstMail?.from?.value).toEqual([{ name: 'SoftPOS', address: 'no-reply@softpos.local' }]);
    expect(addresses(firstMail?.to)).toEqual(['merchant@example.com']);
    expect(firstMail?.subject).toBe('Aktivierungscode für Gerät ✓ 端末');
    expect(firstMail?.text?.trim()).toBe('Code: 123456789012 – gültig 30 Tage');
    expect(addresses(secondMail?.to)).toEqual(['ops@example.com', 'audit@example.com']);
    expect(secondMail?.html).toContain('<p>Second body</p>');
  });

  it('should keep the activation mail to the process user: the folder 0700 (also one that existed more open), each file 0600, whatever the umask', async () => {
    for (const [umask, existing] of [[0o022, false], [0o000, true], [0o002, true]] as const) {
      const directory = join(dataDir, `mail-${umask}-${existing}`);
      if (existing) {
        await mkdir(directory);
        await chmod(directory, 0o777);
      }
      const previous = process.umask(umask);
      try {
        await new FileMailer({ directory }).send({ to: ['merchant@example.com'], subject: 'Code', text: 'Code: 123456789012' });
      } finally {
        process.umask(previous);
      }
      expect((await stat(directory)).mode & 0o777).toBe(0o700);
      const files = await readdir(directory);
      expect(await Promise.all(files.map(async (file) => (await stat(join(directory, file))).mode & 0o777))).toEqual([0o600]);
    }
  });

  it('should attach files as given: name, type and bytes', async () => {
    const mailer = new FileMailer({ directory: dataDir });
    const csv = 'batchId,amount\r\nB123456789012345,12.50\r\n"a, b",ü\r\n';

    await mailer.send({ to: ['ops@example.com'], subject: 'Report', text: 'See the attachment', attachments: [{ filename: 'settlement-B123456789012345.csv', contentType: 'text/csv; charset=utf-8', content: csv }] });

    const [file] = await readdir(dataDir);
    const mail = await simpleParser(await readFile(join(dataDir, file)));
    expect(mail.attachments.map((attachment) => [attachment.filename, attachment.contentType, attachment.content.toString('utf8')])).toEqual([['settlement-B123456789012345.csv', 'text/csv', csv]]);
    expect(mail.text?.trim()).toBe('See the attachment');
  });

  it('should name the file after the sending time and the message id and write CRLF line ends', async () => {
    const sentAt = new Date('2026-03-04T05:06:07.089Z');
    const mailer = new FileMailer({ directory: dataDir, now: () => sentAt });

    const { messageId } = await mailer.send({ to: ['merchant@example.com'], subject: 'Hello', text: 'Line one\nLine two' });

    const [file] = await readdir(dataDir);
    expect(file).toBe(emlFileName(sentAt, messageId));
    expect(file).toMatch(/^20260304T050607\.089Z-[A-Za-z0-9._-]+\.eml$/);
    const raw = await readFile(join(dataDir, file), 'latin1');
    expect(raw).not.toMatch(/[^\r]\n/);
    const mail = await simpleParser(Buffer.from(raw, 'latin1'));
    // The Date header has whole seconds.
    expect(mail.date?.toISOString()).toBe('2026-03-04T05:06:07.000Z');
    expect(mail.from?.value).toEqual([{ name: 'SoftPOS', address: 'no-reply@softpos.local' }]);
  });

  it('should fail with a MailDeliveryError when the folder cannot be created', async () => {
    const blocker = join(dataDir, 'mail');
    await writeFile(blocker, 'a file where the folder should be');
    const mailer = new FileMailer({ directory: blocker });

    const sending = mailer.send({ to: ['merchant@example.com'], subject: 'Hello', text: 'Hello' });

    await expect(sending).rejects.toBeInstanceOf(MailDeliveryError);
    await expect(sending).rejects.toMatchObject({ failure: 'failed', permanent: false });
  });
});
