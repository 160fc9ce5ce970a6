import { InjectDataSource } from '@nestjs/typeorm';

/** merchant-management's connection name (its DataSource on schema `merchant_management`). */
export const MERCHANT_MANAGEMENT_CONNECTION = 'merchant-management';
export const MERCHANT_MANAGEMENT_SCHEMA = 'merchant_management';

/** Injects merchant-management's own DataSource (its schema, its pool). */
export const InjectMmDataSource = (): ParameterDecorator => InjectDataSource(MERCHANT_MANAGEMENT_CONNECTION);
