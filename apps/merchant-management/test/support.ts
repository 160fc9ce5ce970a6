import { EVERY_HOST_ADDRESS } from '@app/messaging';
import { PlatformOptions } from '@app/runtime';
import { ApiClient, startTestApp, TestApp, unique } from '@app/testing';
import { MerchantManagementAppModule } from '../src/app.module';
import { PboService } from '../src/pbo/pbo.service';
import { CreatePboCommand } from '../src/pbo/pbo.service';

export interface MerchantManagementTestApp extends TestApp {
  /** Creates a PBO (as the CLI would) and answers a client holding its token. */
  newPbo(options?: Partial<CreatePboCommand>): Promise<ApiClient & { groupId: string }>;
}

/** merchant-management on its own, on a fresh database, over real HTTP. */
export async function startMerchantManagement(overrides: Partial<PlatformOptions> = {}): Promise<MerchantManagementTestApp> {
  // No host connector answers here: every address its parser takes is taken (the standalone tests ask the real connector).
  const testApp = await startTestApp((options) => MerchantManagementAppModule.register(options), { hostAddresses: EVERY_HOST_ADDRESS, ...overrides });
  return {
    ...testApp,
    newPbo: async (options = {}) => {
      const pbo = await testApp.app.get(PboService).create({ name: unique('PBO '), timeZone: 'Asia/Kuala_Lumpur', ...options });
      const client = await testApp.clientFor(pbo.groupId);
      return Object.assign(client, { groupId: pbo.groupId });
    },
  };
}

export { dataOf } from '@app/testing';
