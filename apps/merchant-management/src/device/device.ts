import { AcceptanceSnapshot } from '../activation-profile/acceptance';

/**
 * An activation code and, once a phone used it, the device, as services and mappers see it:
 * plain data, no TypeORM (persistence/device.entity.ts implements it).
 */
export interface Device {
  uuid: string;
  groupId: string;
  merchantUuid: string;
  /** HMAC of the 12-digit code (lookup and uniqueness). */
  codeLookup: string;
  /** The code, AES-GCM sealed. */
  codeSealed: string;
  /** Assigned at the first activation (the SDK id); null while the code is pending. */
  deviceId: string | null;
  deviceStatus: number;
  deviceUpdate: number;
  deviceType: string | null;
  deviceAlias: string | null;
  deviceName: string | null;
  /** scrypt hash of the device admin password; shown as `******`. */
  deviceAdminHash: string | null;
  appVersion: string | null;
  /** Payment method codes the device accepts; null means every bound method. */
  methodList: string[] | null;
  emvParams: Record<string, string> | null;
  /** `{acquirers: {<acquirerProfileId>: {<field>: <value>}}}`. */
  extParams: Record<string, unknown> | null;
  operatingMode: string;
  /** Gateway profile id (`prof_…`); null while no acquirer matches the device. */
  profileId: string | null;
  /** Version of the last activation profile pushed; grows with every push. */
  profileVersion: number;
  /** The acceptances last pushed to the gateway. */
  acceptances: AcceptanceSnapshot[];
  activesAt: Date | null;
  /** A pending code cannot be used after this instant. */
  expiresAt: Date;
  /** What the phone said about itself at activation. */
  deviceInfo: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
}
