import type { GatewayTranType } from '@app/contracts';

/** Printable ASCII, 1 to 64 characters: a posReference. */
export const POS_REFERENCE_PATTERN = /^[\x20-\x7E]{1,64}$/;

/** The SDK's request for a sale or an authorisation (`POST /{ns}/api/v1/transaction`), validated at the boundary. */
export interface SaleRequest {
  profileId: string;
  tranType: Extract<GatewayTranType, 'SALE' | 'AUTH'>;
  amount: { value: string; currency: string };
  /** The card's EMV data, hex BER-TLV: card data, kept in memory for the host request only. */
  emvData: string;
  posReference?: string | null;
  description?: string | null;
  callbackUrl?: string | null;
}
