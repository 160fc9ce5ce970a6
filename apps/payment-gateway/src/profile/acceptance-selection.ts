/** What routing needs to know of a bound acceptance. */
export interface RoutableAcceptance {
  id: string;
  supportedPayments: readonly string[];
  entityStatus: string;
}

/**
 * The profile's `acptSelection`: each payment method is routed to the first active acceptance,
 * in binding order, that supports it. Every bound acceptance appears, with the methods it got
 * (possibly none).
 */
export function acceptanceSelection(acceptances: readonly RoutableAcceptance[]): Record<string, string[]> {
  const routed = new Set<string>();
  const selection: Record<string, string[]> = {};
  for (const acceptance of acceptances) {
    const methods = acceptance.entityStatus === 'ACTIVE' ? acceptance.supportedPayments.filter((method) => !routed.has(method)) : [];
    for (const method of methods) routed.add(method);
    selection[acceptance.id] = methods;
  }
  return selection;
}
