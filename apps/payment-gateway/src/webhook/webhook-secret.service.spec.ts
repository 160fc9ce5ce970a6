import { DomainError, ErrorCode, FieldCipher, SeededIdGenerator } from '@app/common';
import { randomBytes } from 'node:crypto';
import { SealedSecret, WebhookSecretRepository } from './persistence/webhook-secret.repository';
import { WEBHOOK_SECRET_PATTERN, WebhookSecretService } from './webhook-secret.service';

/** The repository's rules in memory: one secret per group, the first insert wins. */
class InMemorySecrets {
  readonly rows = new Map<string, SealedSecret>();
  private tick = 0;

  find(groupId: string): Promise<SealedSecret | null> {
    return Promise.resolve(this.rows.get(groupId) ?? null);
  }

  insertIfAbsent(groupId: string, sealedSecret: string): Promise<SealedSecret | null> {
    if (this.rows.has(groupId)) return Promise.resolve(null);
    return this.replace(groupId, sealedSecret);
  }

  replace(groupId: string, sealedSecret: string): Promise<SealedSecret> {
    const row = { sealedSecret, createdAt: new Date(Date.UTC(2025, 0, 1) + ++this.tick * 1000) };
    this.rows.set(groupId, row);
    return Promise.resolve(row);
  }
}

describe('WebhookSecretService', () => {
  const cipher = new FieldCipher(randomBytes(32));
  let secrets: InMemorySecrets;
  let service: WebhookSecretService;

  beforeEach(() => {
    secrets = new InMemorySecrets();
    service = new WebhookSecretService(secrets as unknown as WebhookSecretRepository, cipher, new SeededIdGenerator(7));
  });

  it('should make a whsec_ secret on first use, keep it sealed, and answer the same one after', async () => {
    const first = await service.current('grp_a');
    const again = await service.current('grp_a');

    expect(first.secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(again).toEqual(first);
    expect(secrets.rows.get('grp_a')?.sealedSecret).not.toContain(first.secret.slice(6));
    expect((await service.current('grp_b')).secret).not.toBe(first.secret);
  });

  it('should replace the secret on rotation, the new one then being current', async () => {
    const old = await service.current('grp_a');
    const rotated = await service.rotate('grp_a');

    expect(rotated.secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(rotated.secret).not.toBe(old.secret);
    expect(rotated.createdAt.getTime()).toBeGreaterThan(old.createdAt.getTime());
    expect(await service.current('grp_a')).toEqual(rotated);
  });

  it('should ask for a rotation, as a conflict, when the secret was sealed under another data key', async () => {
    await secrets.replace('grp_a', new FieldCipher(randomBytes(32)).seal('whsec_' + 'a'.repeat(64)));

    const failure = await service.current('grp_a').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DomainError);
    expect(failure).toMatchObject({ code: ErrorCode.Conflict, message: expect.stringContaining('rotate it') as string });
    expect((await service.rotate('grp_a')).secret).toMatch(WEBHOOK_SECRET_PATTERN);
  });
});
