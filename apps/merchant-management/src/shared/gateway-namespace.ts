/** Namespace of the gateway the devices of this deployment pay through (GATEWAY_NAMESPACE, default demo). */
export const GATEWAY_NAMESPACE = Symbol('GATEWAY_NAMESPACE');
