import { InjectDataSource } from '@nestjs/typeorm';

/** payment-gateway's connection name (its DataSource on schema `payment_gateway`). */
export const PAYMENT_GATEWAY_CONNECTION = 'payment-gateway';
export const PAYMENT_GATEWAY_SCHEMA = 'payment_gateway';

/** Injects payment-gateway's own DataSource (its schema, its pool). */
export const InjectGatewayDataSource = (): ParameterDecorator => InjectDataSource(PAYMENT_GATEWAY_CONNECTION);
