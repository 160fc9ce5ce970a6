import { DatabaseModule } from '@app/database';
import { Module } from '@nestjs/common';
import { AcquirerController } from './acquirer/acquirer.controller';
import { AcquirerService } from './acquirer/acquirer.service';
import { AcquirerProfileRepository } from './acquirer/persistence/acquirer-profile.repository';
import { merchantManagementDatabase } from './database';
import { EmvController } from './emv/emv.controller';
import { EmvService } from './emv/emv.service';
import { EmvConfigRepository } from './emv/persistence/emv-config.repository';
import { HealthController } from './health/health.controller';
import { DatabaseProbe } from './health/persistence/database-probe.repository';
import { MerchantController } from './merchant/merchant.controller';
import { MerchantService } from './merchant/merchant.service';
import { MerchantRepository } from './merchant/persistence/merchant.repository';
import { PaymentConfigController } from './payment-config/payment-config.controller';
import { PaymentConfigService } from './payment-config/payment-config.service';
import { PaymentConfigRepository } from './payment-config/persistence/payment-config.repository';
import { CurrentController } from './pbo/current.controller';
import { PboRepository } from './pbo/persistence/pbo.repository';
import { PboService } from './pbo/pbo.service';

/**
 * The merchant-management bounded context: PBOs, EMV configs, acquirer profiles, merchants and
 * payment configs, on its own schema. Needs `DatabaseModule.forRoot` and `AuthModule.forRoot`
 * from the application that hosts it.
 */
@Module({
  imports: [DatabaseModule.forContext(merchantManagementDatabase)],
  controllers: [CurrentController, EmvController, AcquirerController, PaymentConfigController, MerchantController, HealthController],
  providers: [
    PboRepository,
    PboService,
    EmvConfigRepository,
    EmvService,
    AcquirerProfileRepository,
    AcquirerService,
    MerchantRepository,
    MerchantService,
    PaymentConfigRepository,
    PaymentConfigService,
    DatabaseProbe,
  ],
  exports: [PboService],
})
export class MerchantManagementModule {}
