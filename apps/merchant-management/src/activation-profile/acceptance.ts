import { BindingRecord } from './binding-record';

/** The gateway acceptance an activation profile carries (what the gateway receives). */
export interface AcceptanceSnapshot {
  acquirerProfileId: number;
  acptName: string;
  hostMessageFormat: string;
  /** Method codes and their names, in code order. */
  paymentMethodCodes: string[];
  supportedPayments: string[];
  primaryMid: string | null;
  primaryTid: string | null;
  extraParams: Record<string, unknown>;
}

/** What an activation profile needs of a device (the device entity is one). */
export interface ProfiledDevice {
  uuid: string;
  groupId: string;
  deviceStatus: number;
  /** The device id (`SDK…`) of its current activation; null (or not loaded) while never activated. */
  deviceId?: string | null;
  deviceAlias: string | null;
  deviceName: string | null;
  /** Method codes the device accepts; null means every bound method. */
  methodList: string[] | null;
  /** `{acquirers: {<profileId>: {<field>: <value>}}}`. */
  extParams: Record<string, unknown> | null;
  emvParams: Record<string, string> | null;
  profileId: string | null;
  profileVersion: number;
  acceptances: AcceptanceSnapshot[];
}

/** What the profile carries of the merchant (the merchant entity is one). */
export interface ProfileMerchant {
  uuid: string;
  groupId: string;
  mchId: string;
  mchName: string;
  contactAddress: string | null;
  mcc: string | null;
  country: string | null;
  currency: string;
  /** IANA time zone: the gateway's local date and time on the wire. */
  timeZone: string;
}

/** What the builder needs of the PBO. */
export interface PboSettings {
  gatewayFormat: string;
  defaultMid: string | null;
  enablerParams: string | null;
}

/** Everything the profiles of a merchant's devices are built from, read once per change. */
export interface ProfileSource {
  merchant: ProfileMerchant;
  pbo: PboSettings;
  bindings: BindingRecord[];
}

/** The profile fields of a device a (re)computation sets. */
export interface ProfileValues {
  acceptances?: AcceptanceSnapshot[];
  profileId?: string | null;
  profileVersion?: number;
  deviceUpdate?: number;
}
