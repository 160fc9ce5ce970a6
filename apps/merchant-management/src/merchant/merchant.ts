/**
 * A merchant onboarded by a PBO, as services and mappers see it: plain data, no TypeORM
 * (persistence/merchant.entity.ts implements it).
 */
export interface Merchant {
  uuid: string;
  mchId: string;
  groupId: string;
  mchName: string;
  mcc: string | null;
  region: string | null;
  timeZone: string;
  country: string | null;
  transType: string | null;
  contactName: string;
  contactEmail: string;
  contactPhone: string | null;
  contactAddress: string | null;
  /** Logo URL or base64 image. */
  receiptLogo: string | null;
  receiptInfo: string | null;
  state: number;
  currency: string;
  providerReference: string | null;
  /** scrypt hash of the operator passcode; never returned. */
  passcodeHash: string | null;
  mdr: string | null;
  merchantType: string | null;
  additionalData: Record<string, unknown> | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}
