/**
 * Host message formats an acceptance can name through the API: the host formats of
 * `DECISIONS.md` that the gateway speaks itself (all but SVC_ENABLER, which means "through the
 * gateway"). merchant-management keeps the same list for acquirer profiles.
 */
export const GATEWAY_HOST_MESSAGE_FORMATS = [
  'MOCK',
  'ISO8583',
  'S2M_8583',
  'MASARAT_8583',
  'CASHPLUS_8583',
  'MPGS_AP',
  'POMELO_JSON',
  'EZ_AIO',
  'EZ_WALLET',
] as const;
