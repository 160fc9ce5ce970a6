import { PboService } from '../../merchant-management/src/pbo/pbo.service';
import { PboRepository } from '../../merchant-management/src/pbo/persistence/pbo.repository';
import { PboEntity } from '../../merchant-management/src/pbo/persistence/pbo.entity';

/** The PBO that standalone creates on first start, so a fresh clone has someone to act as. */
export const DEMO_GROUP_ID = 'demo';

export async function ensureDemoPbo(repository: PboRepository, service: PboService): Promise<{ pbo: PboEntity; created: boolean }> {
  const existing = await repository.findById(DEMO_GROUP_ID);
  if (existing) return { pbo: existing, created: false };
  const pbo = await service.create({ groupId: DEMO_GROUP_ID, name: 'Demo PBO', timeZone: 'Asia/Kuala_Lumpur', qrEnabled: true, gatewayFormat: 'MOCK' });
  return { pbo, created: true };
}
