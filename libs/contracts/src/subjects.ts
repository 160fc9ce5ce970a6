/**
 * NATS subjects between bounded contexts. Every subject ends in its contract version (`.v1`):
 * a breaking payload change gets a new subject, so old and new consumers can run side by side.
 * A subject is added with its first producer or consumer (`docs/decisions.md`, "Contracts stand
 * alone"), not ahead of it.
 */

/** JetStream stream that stores the subjects in {@link STREAMED_SUBJECTS}; consumers bind durable consumers to it. */
export const EVENT_STREAM = 'SOFTPOS_EVENTS';

// --- Published through an outbox and stored by JetStream (at-least-once, de-duplicated by outbox id) ---

/** merchant-management → payment-gateway: create or replace a gateway profile ({@link GatewayProfileUpsertV1}). */
export const GATEWAY_PROFILE_UPSERT_V1 = 'gateway.profile.upsert.v1';

/** payment-gateway → merchant-management: what became of one profile upsert, APPLIED or REJECTED ({@link GatewayProfileOutcomeV1}). */
export const GATEWAY_PROFILE_OUTCOME_V1 = 'gateway.profile.outcome.v1';

/** payment-gateway → transactions (and the gateway's own webhook sender): a transaction changed ({@link GatewayTransactionUpdatedV1}). */
export const GATEWAY_TRANSACTION_UPDATED_V1 = 'gateway.transaction.updated.v1';

/** payment-gateway → host-connector: a PBO's terminal identity was released, its claims at the connector go ({@link GatewayTerminalReleasedV1}). */
export const GATEWAY_TERMINAL_RELEASED_V1 = 'gateway.terminal.released.v1';

/** host-connector → payment-gateway: a reversal was queued or one of its attempts ended ({@link HostReversalUpdatedV1}). */
export const HOST_REVERSAL_UPDATED_V1 = 'host.reversal.updated.v1';

/** transactions → whoever reports on settlement: a settlement batch settled ({@link TxnBatchSettledV1}). */
export const TXN_BATCH_SETTLED_V1 = 'txn.batch.settled.v1';

/**
 * The subjects {@link EVENT_STREAM} captures. Request/reply subjects must never be in a stream:
 * JetStream would answer the request with a PubAck before the real responder does.
 */
export const STREAMED_SUBJECTS = [
  GATEWAY_PROFILE_UPSERT_V1,
  GATEWAY_PROFILE_OUTCOME_V1,
  GATEWAY_TRANSACTION_UPDATED_V1,
  GATEWAY_TERMINAL_RELEASED_V1,
  HOST_REVERSAL_UPDATED_V1,
  TXN_BATCH_SETTLED_V1,
] as const;

// --- Core NATS request/reply (queue groups, deadlines), not stored ---

/** payment-gateway / transactions → host-connector: one host operation each. */
export const HOST_AUTHORIZE_V1 = 'host.authorize.v1';
export const HOST_REVERSE_V1 = 'host.reverse.v1';
export const HOST_VOID_V1 = 'host.void.v1';
export const HOST_REFUND_V1 = 'host.refund.v1';
export const HOST_CAPTURE_V1 = 'host.capture.v1';
export const HOST_SETTLE_V1 = 'host.settle.v1';
export const HOST_SIGNON_V1 = 'host.signon.v1';
export const HOST_ECHO_V1 = 'host.echo.v1';

/** merchant-management → host-connector: would the connector send this PBO's requests to this address? ({@link HostAddressCheckRequestV1}). */
export const HOST_ADDRESS_CHECK_V1 = 'host.address.check.v1';

/** transactions → payment-gateway: act on a transaction (queue group `payment-gateway`). */
export const GATEWAY_TRANSACTION_VOID_V1 = 'gateway.transaction.void.v1';
export const GATEWAY_TRANSACTION_REFUND_V1 = 'gateway.transaction.refund.v1';
export const GATEWAY_TRANSACTION_CAPTURE_V1 = 'gateway.transaction.capture.v1';
/** transactions → payment-gateway: close a terminal's batch and reconcile it with the host. */
export const GATEWAY_BATCH_SETTLE_V1 = 'gateway.batch.settle.v1';

/** transactions → merchant-management: check a device's admin password (queue group `merchant-management`). */
export const MMS_DEVICE_VERIFY_ADMIN_V1 = 'mms.device.verify-admin.v1';

/** Every context that verifies tokens → merchant-management: does the token's group exist? (queue group `merchant-management`). */
export const MMS_GROUP_VERIFY_V1 = 'mms.group.verify.v1';
