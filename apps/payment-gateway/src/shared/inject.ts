import { InjectDataSource } from '@nestjs/typeorm';
import { PAYMENT_GATEWAY_CONNECTION } from '../database';

/** Injects payment-gateway's own DataSource (its schema, its pool). */
export const InjectGatewayDataSource = (): ParameterDecorator => InjectDataSource(PAYMENT_GATEWAY_CONNECTION);
