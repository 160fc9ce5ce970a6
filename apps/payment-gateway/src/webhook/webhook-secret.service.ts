import { DomainError, FIELD_CIPHER, FieldCipher, IdGenerator } from '@app/common';
import { Inject, Injectable } from '@nestjs/common';
import { SealedSecret, WebhookSecretRepository } from './persistence/webhook-secret.repository';

/** A PBO's webhook signing secret, in clear, and when it was made. */
export interface WebhookSecret {
  secret: string;
  createdAt: Date;
}

/** `whsec_` and 32 random bytes in hex: the prefix tells secret scanners what leaked. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[0-9a-f]{64}$/;

/**
 * Each PBO's webhook secret: made on first use (the first read, or the first delivery to sign),
 * stored sealed, shown to the PBO again on request, replaced by rotation. Deliveries are signed
 * with the secret current at each attempt (docs/decisions.md, "Webhooks (issue 13)").
 */
@Injectable()
export class WebhookSecretService {
  constructor(
    private readonly secrets: WebhookSecretRepository,
    @Inject(FIELD_CIPHER) private readonly cipher: FieldCipher,
    private readonly ids: IdGenerator,
  ) {}

  /** The group's secret, made now when it has none. */
  async current(groupId: string): Promise<WebhookSecret> {
    const stored =
      (await this.secrets.find(groupId)) ??
      (await this.secrets.insertIfAbsent(groupId, this.cipher.seal(this.newSecret()))) ??
      (await this.secrets.find(groupId));
    if (!stored) throw new Error(`the webhook secret of group ${groupId} was neither stored nor found`);
    return this.opened(stored);
  }

  /** Replaces the group's secret with a new one: every later attempt is signed with it. */
  async rotate(groupId: string): Promise<WebhookSecret> {
    return this.opened(await this.secrets.replace(groupId, this.cipher.seal(this.newSecret())));
  }

  private newSecret(): string {
    return `whsec_${this.ids.bytes(32).toString('hex')}`;
  }

  private opened(stored: SealedSecret): WebhookSecret {
    try {
      return { secret: this.cipher.open(stored.sealedSecret), createdAt: stored.createdAt };
    } catch {
      throw DomainError.conflict(
        'the webhook secret was sealed under another DATA_ENCRYPTION_KEY and cannot be read: rotate it (POST /webhooks/secret/rotate)',
      );
    }
  }
}
