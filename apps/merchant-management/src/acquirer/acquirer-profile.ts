/** Map of payment method code to the transaction types allowed for it (reserved; may be empty). */
export type MethodList = Record<string, string[]>;

/**
 * An acquirer profile (host connection and the payment methods it handles), as services and
 * mappers see it: plain data, no TypeORM (persistence/acquirer-profile.entity.ts implements it).
 */
export interface AcquirerProfile {
  id: number;
  groupId: string;
  profileName: string;
  asDefault: boolean;
  asSettleBlock: boolean;
  currency: string;
  acqType: string;
  connUrl: string | null;
  notifyUrl: string | null;
  connExtraParams: Record<string, unknown> | null;
  connMessageFormat: string;
  enablerMsgFormat: string | null;
  enablerParams: string | null;
  /** Connect timeout towards the host, milliseconds (legacy `connTimeout`). */
  connTimeout: number | null;
  /** Request timeout towards the host, milliseconds (legacy `connRequestTimeout`). */
  connRequestTimeout: number | null;
  methodList: MethodList;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}
