import { DomainError } from '@app/common';
import { UnitOfWork } from '@app/database';
import { Pbo } from '../../pbo/pbo';
import { PboService } from '../../pbo/pbo.service';

/** A PBO with the defaults a test rarely cares about. */
export function pboOf(groupId: string, overrides: Partial<Pbo> = {}): Pbo {
  return {
    groupId,
    groupName: `PBO ${groupId}`,
    timeZone: 'Asia/Kuala_Lumpur',
    qrEnabled: false,
    gatewayFormat: 'MOCK',
    enablerParams: null,
    defaultMid: null,
    emailSender: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...overrides,
  };
}

/** {@link PboService} over a fixed list of PBOs (11000 for any other group, as the real one). */
export function fakePbos(...pbos: Pbo[]): PboService {
  const byId = new Map(pbos.map((pbo) => [pbo.groupId, pbo]));
  return {
    lock: async () => {},
    require: async (groupId: string) => {
      const pbo = byId.get(groupId);
      if (!pbo) throw DomainError.unauthenticated(`the token's group ${groupId} does not exist`);
      return pbo;
    },
  } as unknown as PboService;
}

/** A unit of work that just runs the work (the in-memory repositories have no transactions). */
export const immediateUnitOfWork: UnitOfWork = { run: (work) => work(), snapshot: (work) => work() };
