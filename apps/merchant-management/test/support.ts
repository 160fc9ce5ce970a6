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
  const testApp = await startTestApp((options) => MerchantManagementAppModule.register(options), overrides);
  return {
    ...testApp,
    newPbo: async (options = {}) => {
      const pbo = await testApp.app.get(PboService).create({ name: unique('PBO '), timeZone: 'Asia/Kuala_Lumpur', ...options });
      const client = await testApp.clientFor(pbo.groupId);
      return Object.assign(client, { groupId: pbo.groupId });
    },
  };
}

/** Unwraps a success envelope, failing the test with the envelope when it is not one. */
export function dataOf<T>(response: { status: number; body: { code: number; msg: string; data?: T } }): T {
  if (response.status !== 200 || response.body.code !== 0) {
    throw new Error(`expected success, got HTTP ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body.data as T;
}
