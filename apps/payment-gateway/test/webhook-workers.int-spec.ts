import { GATEWAY_TRANSACTION_UPDATED_V1 } from '@app/contracts';
import { MESSAGE_PUBLISHER, MessagePublisher } from '@app/messaging';
import { createPlatformApp } from '@app/runtime';
import { createTestDatabase, queryDatabase, TestDatabase, testPlatformOptions, unique, waitFor } from '@app/testing';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { PaymentGatewayAppModule } from '../src/app.module';
import { transactionUpdatedPayload } from './factories';
import { gatewayOptionsFrom } from './support';
import { WebhookReceiver } from './webhook-receiver';

/**
 * Two gateway replicas on one PostgreSQL share the delivery queue: every delivery is attempted
 * by one of them only (FOR UPDATE SKIP LOCKED and the claim's lease), so a receiver gets each
 * delivery once however many workers compete for it.
 */
describe('webhook workers of two replicas', () => {
  let database: TestDatabase;
  let replicas: NestFastifyApplication[] = [];
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    database = await createTestDatabase('webhookworkers');
    const gateway = gatewayOptionsFrom({
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_CONCURRENCY: '4',
      WEBHOOK_TIMEOUT_MS: '5000',
    });
    for (let i = 0; i < 2; i++) {
      replicas.push(await createPlatformApp(PaymentGatewayAppModule.register(testPlatformOptions(database.url), gateway), { logger: false }));
    }
    await Promise.all(replicas.map((replica) => replica.init()));
  });

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    replicas = [];
    await database?.drop();
    await receiver?.stop();
  });

  it('should deliver each of 60 queued webhooks exactly once, one attempt each', async () => {
    const groupId = unique('grp_');
    const path = `/${unique('shared')}`;
    // A receiver that takes a moment, so that the eight lanes of the two replicas overlap.
    receiver.script(path, () => ({ status: 200, delayMs: 20 }));
    const events = Array.from({ length: 60 }, () => transactionUpdatedPayload({ groupId, transaction: { callbackUrl: receiver.url(path) } }));
    // Both replicas' consumers queue: half the events reach one, half the other.
    for (const [index, event] of events.entries()) {
      await replicas[index % 2].get<MessagePublisher>(MESSAGE_PUBLISHER).publish(GATEWAY_TRANSACTION_UPDATED_V1, event, { msgId: randomUUID() });
    }

    const delivered = async () =>
      (
        await queryDatabase<{ n: number }>(
          database.url,
          `SELECT count(*)::int AS n FROM payment_gateway.webhook_delivery WHERE group_id = $1 AND state = 'DELIVERED'`,
          [groupId],
        )
      )[0].n;
    await waitFor('every delivery to be DELIVERED', async () => (await delivered()) === 60, 30_000);

    const ids = receiver.to(path).map((request) => request.headers['softpos-delivery-id']);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    const attempts = await queryDatabase<{ attempts: number }>(
      database.url,
      'SELECT DISTINCT attempts FROM payment_gateway.webhook_delivery WHERE group_id = $1',
      [groupId],
    );
    expect(attempts).toEqual([{ attempts: 1 }]);
  });
});
