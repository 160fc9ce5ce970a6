/**
 * NATS subjects between bounded contexts. Every subject ends in its contract version (`.v1`):
 * a breaking payload change gets a new subject, so old and new consumers can run side by side.
 */

/** JetStream stream that stores the subjects in {@link STREAMED_SUBJECTS}; consumers bind durable consumers to it. */
export const EVENT_STREAM = 'SOFTPOS_EVENTS';

// --- Published through an outbox and stored by JetStream (at-least-once, de-duplicated by outbox id) ---

/** merchant-management → payment-gateway: create or replace a gateway profile ({@link GatewayProfileUpsertV1}). */
export const GATEWAY_PROFILE_UPSERT_V1 = 'gateway.profile.upsert.v1';
/** payment-gateway → transactions: a transaction or one of its actions changed. */
export const GATEWAY_TRANSACTION_UPDATED_V1 = 'gateway.transaction.updated.v1';
/** transactions → whoever listens: a settlement batch was settled with the host. */
export const TXN_BATCH_SETTLED_V1 = 'txn.batch.settled.v1';

/**
 * The subjects {@link EVENT_STREAM} captures. Request/reply subjects must never be in a stream:
 * JetStream would answer the request with a PubAck before the real responder does.
 */
export const STREAMED_SUBJECTS = [GATEWAY_PROFILE_UPSERT_V1, GATEWAY_TRANSACTION_UPDATED_V1, TXN_BATCH_SETTLED_V1] as const;

// --- Core NATS request/reply (queue groups, deadlines), not stored ---

/** transactions → merchant-management: check a device's adminPwd before a void/refund. */
export const MMS_DEVICE_VERIFY_ADMIN_V1 = 'mms.device.verify-admin.v1';
/** transactions → payment-gateway: act on a transaction the gateway owns. */
export const GATEWAY_TRANSACTION_VOID_V1 = 'gateway.transaction.void.v1';
export const GATEWAY_TRANSACTION_REFUND_V1 = 'gateway.transaction.refund.v1';
export const GATEWAY_TRANSACTION_CAPTURE_V1 = 'gateway.transaction.capture.v1';
/** payment-gateway / transactions → host-connector: one host operation each. */
export const HOST_AUTHORIZE_V1 = 'host.authorize.v1';
export const HOST_REVERSE_V1 = 'host.reverse.v1';
export const HOST_VOID_V1 = 'host.void.v1';
export const HOST_REFUND_V1 = 'host.refund.v1';
export const HOST_CAPTURE_V1 = 'host.capture.v1';
export const HOST_SETTLE_V1 = 'host.settle.v1';
export const HOST_SIGNON_V1 = 'host.signon.v1';
export const HOST_ECHO_V1 = 'host.echo.v1';

/** A subject that JetStream stores. */
export type StreamedSubject = (typeof STREAMED_SUBJECTS)[number];
