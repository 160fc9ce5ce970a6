import { InjectDataSource } from '@nestjs/typeorm';
import { MERCHANT_MANAGEMENT_CONNECTION } from '../database';

/** Injects merchant-management's own DataSource (its schema, its pool). */
export const InjectMmDataSource = (): ParameterDecorator => InjectDataSource(MERCHANT_MANAGEMENT_CONNECTION);
