import { BindingRecord } from '../activation-profile/binding-record';
import { Merchant } from './merchant';

/** A merchant with its bindings, read in one statement. */
export interface MerchantView {
  merchant: Merchant;
  bindings: BindingRecord[];
  hasKioskTerminal: boolean;
}

/** What both APIs write about a merchant (the profile fields); omitted optional fields take their defaults. */
export interface MerchantCommand {
  mchName: string;
  currency: string;
  contactName: string;
  contactEmail: string;
  mcc?: string | null;
  region?: string | null;
  timeZone?: string | null;
  country?: string | null;
  transType?: string | null;
  contactPhone?: string | null;
  contactAddress?: string | null;
  receiptLogo?: string | null;
  receiptInfo?: string | null;
  state?: number | null;
  providerReference?: string | null;
  /** In clear; stored hashed. On a replace, omitted keeps it and null clears it. */
  passcode?: string | null;
  mdr?: string | null;
  merchantType?: string | null;
  additionalData?: Record<string, unknown> | null;
}

/** A merchant with what the legacy shape adds: the PBO's default MID (its bindings' MIDs come first). */
export interface MerchantWithBindings extends MerchantView {
  defaultMid: string | null;
}
