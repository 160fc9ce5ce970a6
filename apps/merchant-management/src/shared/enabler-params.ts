/**
 * enablerParams lists (spec 1, acquirer profile write fields): names of the per-acquirer device
 * fields a profile expects under `extParams.acquirers.{profileId}`, separated by commas or
 * semicolons. A blank list (empty, white space or separators only) names no field: the profile
 * then falls back to the PBO's group-level list.
 */
export const ENABLER_PARAMS_PATTERN = /^[\s,;]*$|^\s*[A-Za-z][A-Za-z0-9_]{0,63}(\s*[,;]\s*[A-Za-z][A-Za-z0-9_]{0,63})*\s*$/;

/** Splits an enablerParams list (`acqMid,acqTid` or `acqMid;acqTid`) into field names. */
export function enablerFields(list: string | null | undefined): string[] {
  return (list ?? '')
    .split(/[,;]/)
    .map((field) => field.trim())
    .filter((field) => field.length > 0);
}

/** The list as stored: as given when it names a field, null when blank (the group's list applies). */
export function storedEnablerParams(list: string | null | undefined): string | null {
  return list != null && enablerFields(list).length > 0 ? list : null;
}

/** The fields a device must carry for a profile: the profile's own list, else (blank or none) the group's. */
export function effectiveEnablerFields(profileList: string | null | undefined, groupList: string | null | undefined): string[] {
  const own = enablerFields(profileList);
  return own.length > 0 ? own : enablerFields(groupList);
}
