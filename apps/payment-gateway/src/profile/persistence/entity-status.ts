/** `entityStatus` of profiles and acceptances (spec section 3). */
export const ENTITY_STATUSES = ['ACTIVE', 'DISABLED'] as const;

export type EntityStatus = (typeof ENTITY_STATUSES)[number];
