// merchant-management's public face: what other apps, scripts, benchmarks and system tests may
// use (eslint.config.js refuses deeper imports from outside the app).
export { MerchantManagementAppModule } from './app.module';
export { merchantManagementDatabase } from './database';
export { MerchantManagementModule } from './merchant-management.module';
export type { Pbo } from './pbo/pbo';
export { PboModule } from './pbo/pbo.module';
export { pboModuleWithDatabase } from './database.module';
export { PboService } from './pbo/pbo.service';
export { PROFILE_OUTCOME_CONSUMER, profileOutcomeConsumer } from './profile-sync/profile-outcome.consumer';
export { ProfileSyncService } from './profile-sync/profile-sync.service';
