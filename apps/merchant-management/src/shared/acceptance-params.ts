import { DomainError } from '@app/common';
import { HOST_ACQUIRER_ID_PATTERN } from '@app/contracts';

/**
 * The acquirer parameters the gateway reads from an acceptance's `extraParams` and puts on the
 * wire (docs/decisions.md, "Merchant data reaches the host"): `acqInstId`, the acquiring
 * institution id (field 32), and `subMchDba`, a payment facilitator's sub-merchant (named in field
 * 43). Set on the acquirer profile (`connExtraParams`) or on a device for one acquirer
 * (`extParams.acquirers.{profileId}`, or for all of them); the device's value wins. Each with the
 * rule a value must meet to reach the host, and what it is refused with.
 */
export const ACCEPTANCE_PARAM_RULES: Readonly<Record<string, readonly [RegExp, string]>> = {
  acqInstId: [HOST_ACQUIRER_ID_PATTERN, 'must be 1 to 11 digits (the acquiring institution id, field 32)'],
  subMchDba: [/^(?=.*\S)[^\p{Cc}]{1,64}$/u, 'must be 1 to 64 characters without control characters, not blank (the sub-merchant named in field 43)'],
};

const NAMES = Object.keys(ACCEPTANCE_PARAM_RULES);

/** 10000 naming `path.<name>` when an acceptance parameter of `params` breaks its rule; other keys are not looked at. */
export function checkAcceptanceParams(params: Record<string, unknown> | null | undefined, path: string): void {
  for (const name of NAMES) {
    const value = params?.[name];
    if (value === undefined) continue;
    const [pattern, rule] = ACCEPTANCE_PARAM_RULES[name];
    if (typeof value !== 'string' || !pattern.test(value)) throw DomainError.validation(`${path}.${name} ${rule}`);
  }
}

/**
 * The acceptance parameters the gateway gets, each from the first of `sources` that has it (the
 * device's fields, then the acquirer profile's): only these, so that credentials an acquirer's
 * connection or a device keeps (`clientId`, `jwtSecret`, …) stay in merchant-management.
 */
export function acceptanceParamsOf(...sources: (Record<string, unknown> | null | undefined)[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of NAMES) {
    const value = sources.map((source) => source?.[name]).find((candidate) => typeof candidate === 'string' && candidate !== '');
    if (typeof value === 'string') params[name] = value;
  }
  return params;
}
