import { GatewayProfileOutcome } from '@app/contracts';
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
  /** The version the gateway's last outcome is about (0: none yet); see profileSyncOf. */
  profileSyncVersion: number;
  /** The gateway's last outcome; null while none arrived. */
  profileSyncOutcome: GatewayProfileOutcome | null;
  /** Why the gateway refused the profile; null unless REJECTED. */
  profileSyncReason: string | null;
  /** When the gateway decided its last outcome. */
  profileSyncedAt: Date | null;
  activesAt: Date | null;
  /** A pending code cannot be used after this instant. */
  expiresAt: Date;
  /** What the phone said about itself at activation. */
  deviceInfo: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A device's profile sync fields before the gateway's first outcome. */
export const NO_PROFILE_SYNC: Pick<Device, 'profileSyncVersion' | 'profileSyncOutcome' | 'profileSyncReason' | 'profileSyncedAt'> = {
  profileSyncVersion: 0,
  profileSyncOutcome: null,
  profileSyncReason: null,
  profileSyncedAt: null,
};

/**
 * Where a device's gateway profile stands (docs/decisions.md, "Profile sync state"): PENDING while
 * the latest push awaits the gateway's outcome, APPLIED once the gateway stored it, REJECTED when
 * it refused it for good (with its reason).
 */
export const PROFILE_SYNC_STATES = ['PENDING', 'APPLIED', 'REJECTED'] as const;
export type ProfileSyncState = (typeof PROFILE_SYNC_STATES)[number];

export interface ProfileSync {
  state: ProfileSyncState;
  /** The latest version pushed (the one the state is about). */
  version: number;
  /** The gateway's reason; null unless REJECTED. */
  reason: string | null;
  /** When the gateway decided; null while PENDING. */
  decidedAt: Date | null;
}

/** The sync state of a device's profile; null when it has none (no acquirer matched: nothing is pushed). */
export function profileSyncOf(device: Pick<Device, 'profileId' | 'profileVersion' | 'profileSyncVersion' | 'profileSyncOutcome' | 'profileSyncReason' | 'profileSyncedAt'>): ProfileSync | null {
  if (device.profileId === null) return null;
  if (device.profileSyncOutcome === null || device.profileSyncVersion < device.profileVersion) {
    return { state: 'PENDING', version: device.profileVersion, reason: null, decidedAt: null };
  }
  return {
    state: device.profileSyncOutcome,
    version: device.profileVersion,
    reason: device.profileSyncOutcome === 'REJECTED' ? device.profileSyncReason : null,
    decidedAt: device.profileSyncedAt,
  };
}
