/** Nest injection token of the {@link HostConnectorConfig}. */
export const HOST_CONNECTOR_CONFIG = Symbol('HOST_CONNECTOR_CONFIG');
