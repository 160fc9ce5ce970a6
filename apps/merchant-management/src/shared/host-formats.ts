/** Host message formats (`DECISIONS.md`, Host formats) an acquirer profile can name. */
export const HOST_MESSAGE_FORMATS = [
  'MOCK',
  'ISO8583',
  'S2M_8583',
  'MASARAT_8583',
  'CASHPLUS_8583',
  'MPGS_AP',
  'POMELO_JSON',
  'EZ_AIO',
  'EZ_WALLET',
  'SVC_ENABLER',
] as const;

export type HostMessageFormat = (typeof HOST_MESSAGE_FORMATS)[number];

/** Formats the gateway itself can speak: every host format but SVC_ENABLER, which means "through the gateway". */
export const GATEWAY_MESSAGE_FORMATS = HOST_MESSAGE_FORMATS.filter((format) => format !== 'SVC_ENABLER');
