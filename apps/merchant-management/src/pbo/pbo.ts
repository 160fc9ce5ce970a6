/**
 * A payment business owner (group), the tenant every other object belongs to, as services and
 * controllers see it: plain data, no TypeORM (persistence/pbo.entity.ts implements it).
 */
export interface Pbo {
  groupId: string;
  groupName: string;
  /** Default time zone of the PBO's merchants (IANA). */
  timeZone: string;
  /** Whether the PBO may create `qr` acquirer profiles. */
  qrEnabled: boolean;
  /** Group-level gateway message format, used when an acquirer profile has no enablerMsgFormat. */
  gatewayFormat: string;
  /** Group-level enablerParams list (fallback of the acquirer profile's). */
  enablerParams: string | null;
  /** Group-level default MID (fallback of a binding's mid). */
  defaultMid: string | null;
  /** Sender of the PBO's e-mails: `{name, address}`. */
  emailSender: Record<string, string> | null;
  createdAt: Date;
  updatedAt: Date;
}
