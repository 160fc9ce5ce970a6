import { Pbo, PboService } from '../../merchant-management/src';

/** The PBO that standalone creates on first start, so a fresh clone has someone to act as. */
export const DEMO_GROUP_ID = 'demo';

export async function ensureDemoPbo(pbos: PboService): Promise<{ pbo: Pbo; created: boolean }> {
  const existing = await pbos.find(DEMO_GROUP_ID);
  if (existing) return { pbo: existing, created: false };
  const pbo = await pbos.create({ groupId: DEMO_GROUP_ID, name: 'Demo PBO', timeZone: 'Asia/Kuala_Lumpur', qrEnabled: true, gatewayFormat: 'MOCK' });
  return { pbo, created: true };
}
