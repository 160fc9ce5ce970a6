/** `deviceStatus` (`docs/decisions.md`, "Enumerations"). */
export enum DeviceStatus {
  /** Activation code issued, not yet used. */
  Pending = 0,
  Active = 1,
  LoggedOut = 2,
  Decommissioned = 3,
  /** Code kept and freed for (re-)activation. */
  Idle = 4,
}

/** Statuses in which a code may be used to activate a phone. */
export const ACTIVATABLE_STATUSES: number[] = [DeviceStatus.Pending, DeviceStatus.Idle];

/** Statuses that keep a merchant from being deleted (a decommissioned device is history). */
export const LIVE_STATUSES = [DeviceStatus.Pending, DeviceStatus.Active, DeviceStatus.LoggedOut, DeviceStatus.Idle];

export const OPERATING_MODES = ['STANDARD', 'KIOSK'] as const;

/** Activation codes expire after 30 days unless used. */
export const ACTIVATION_CODE_TTL_MS = 30 * 24 * 3600 * 1000;

const CODE_PATTERN = /^\d{12}$/;
const CODE_ID_PATTERN = /^CD-(\d{12})$/;

/** The activation code a path id names (`CD-` + code or the bare 12-digit code); undefined for anything else. */
export function activationCodeOf(id: string): string | undefined {
  return CODE_ID_PATTERN.exec(id)?.[1] ?? (CODE_PATTERN.test(id) ? id : undefined);
}
