import { AllowList, ConfigError, errorMessage, integer, text, ValuesOf } from '@app/common';

/** How the gateway delivers transactions to their callbackUrl (docs/decisions.md, "Webhooks (issue 13)"). */
export interface WebhookConfig {
  /**
   * WEBHOOK_ALLOWED_HOSTS: destinations that may be delivered to although they are loopback,
   * private, link-local or otherwise not public (host names as written in the URL, addresses,
   * CIDR networks, each optionally with `:port`). Loopback is allowed in standalone outside production.
   */
  allowList: AllowList;
  /** WEBHOOK_TIMEOUT_MS: one attempt's deadline, DNS, connection and answer included. */
  timeoutMs: number;
  /** WEBHOOK_BACKOFF_MS: delay after the first failed attempt; doubled per attempt. */
  backoffBaseMs: number;
  /** WEBHOOK_BACKOFF_MAX_MS: the longest delay between two attempts. */
  backoffMaxMs: number;
  /** WEBHOOK_GIVE_UP_MS: how long after the first attempt the last one is made; then the delivery is FAILED. */
  giveUpMs: number;
  /** WEBHOOK_POLL_MS: how often each replica looks for due deliveries (a delivery queued in this process wakes it at once). */
  pollIntervalMs: number;
  /** WEBHOOK_CONCURRENCY: deliveries one replica attempts at the same time. */
  concurrency: number;
  /** WEBHOOK_RETENTION_DAYS, in ms: how long finished deliveries stay listed. */
  retentionMs: number;
}

const DAY_MS = 86_400_000;

/** The gateway's webhook variables (README, Configuration). */
export const webhookVariables = {
  WEBHOOK_ALLOWED_HOSTS: text(),
  WEBHOOK_TIMEOUT_MS: integer(10_000, 100, 60_000),
  WEBHOOK_BACKOFF_MS: integer(10_000, 10, 3_600_000),
  WEBHOOK_BACKOFF_MAX_MS: integer(3_600_000, 10, DAY_MS),
  WEBHOOK_GIVE_UP_MS: integer(DAY_MS, 1000, 7 * DAY_MS),
  WEBHOOK_POLL_MS: integer(1000, 10, 600_000),
  WEBHOOK_CONCURRENCY: integer(4, 1, 64),
  WEBHOOK_RETENTION_DAYS: integer(30, 1, 3650),
};

export type WebhookSettings = ValuesOf<typeof webhookVariables>;

/**
 * Checks the webhook settings together. In `standalone` outside production, loopback
 * destinations (localhost, 127.0.0.0/8, ::1) are allowed besides the list, so a receiver on the
 * developer's machine works out of the box; nowhere else is anything allowed that is not public
 * unless WEBHOOK_ALLOWED_HOSTS names it.
 */
export function webhookConfigFrom(values: WebhookSettings, options: { standalone: boolean; production: boolean }): WebhookConfig {
  let allowList: AllowList;
  try {
    allowList = AllowList.parse(values.WEBHOOK_ALLOWED_HOSTS, { allowLoopback: options.standalone && !options.production, variable: 'WEBHOOK_ALLOWED_HOSTS' });
  } catch (error) {
    throw new ConfigError([errorMessage(error)]);
  }
  if (values.WEBHOOK_BACKOFF_MAX_MS < values.WEBHOOK_BACKOFF_MS) {
    throw new ConfigError([
      `WEBHOOK_BACKOFF_MAX_MS must be from WEBHOOK_BACKOFF_MS (${values.WEBHOOK_BACKOFF_MS}) to ${DAY_MS}, got ${values.WEBHOOK_BACKOFF_MAX_MS}`,
    ]);
  }
  return {
    allowList,
    timeoutMs: values.WEBHOOK_TIMEOUT_MS,
    backoffBaseMs: values.WEBHOOK_BACKOFF_MS,
    backoffMaxMs: values.WEBHOOK_BACKOFF_MAX_MS,
    giveUpMs: values.WEBHOOK_GIVE_UP_MS,
    pollIntervalMs: values.WEBHOOK_POLL_MS,
    concurrency: values.WEBHOOK_CONCURRENCY,
    retentionMs: values.WEBHOOK_RETENTION_DAYS * DAY_MS,
  };
}

/** Nest injection token of the {@link WebhookConfig}. */
export const WEBHOOK_CONFIG = Symbol('WEBHOOK_CONFIG');
