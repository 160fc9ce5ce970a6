import { InjectDataSource } from '@nestjs/typeorm';

/** The host connector's connection name (its DataSource on schema `host_connector`). */
export const HOST_CONNECTOR_CONNECTION = 'host-connector';
export const HOST_CONNECTOR_SCHEMA = 'host_connector';

/** Injects the host connector's own DataSource. */
export const InjectHostConnectorDataSource = (): ParameterDecorator => InjectDataSource(HOST_CONNECTOR_CONNECTION);
