import { itChecksContextMigrations } from '@app/testing';
import { paymentGatewayDatabase } from '../database';

describe('payment-gateway migrations', () => {
  itChecksContextMigrations(paymentGatewayDatabase);
});
