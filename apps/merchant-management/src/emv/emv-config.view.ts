/** What the EMV service answers about an EMV config; each API maps it to its own shape. */
export interface EmvConfigView {
  id: number;
  groupId: string;
  emvName: string;
  /** Payment method code (`01`..`06`). */
  paymentMethod: string;
  currency: string | null;
  /** The EMV parameter object (docs/decisions.md, "EMV parameter object"), decoded. */
  params: Record<string, unknown>;
  aid: string | null;
  emvVersion: string | null;
  createdAt: Date;
  updatedAt: Date;
}
