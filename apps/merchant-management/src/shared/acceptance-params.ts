import { DomainError } from '@app/common';
import { ACCEPTANCE_PARAM_RULES, acceptanceParamFailure } from '@app/contracts';

/**
 * The acquirer parameters the gateway reads from an acceptance's `extraParams` (`ACCEPTANCE_PARAM_RULES`
 * in libs/contracts, the gateway's profile API checks the same): set on the acquirer profile
 * (`connExtraParams`) or on a device for one acquirer (`extParams.acquirers.{profileId}`, or for all
 * of them); the device's value wins.
 */
const NAMES = Object.keys(ACCEPTANCE_PARAM_RULES);

/** 10000 naming `path.<name>` when an acceptance parameter of `params` breaks its rule; other keys are not looked at. */
export function checkAcceptanceParams(params: Record<string, unknown> | null | undefined, path: string): void {
  const failure = acceptanceParamFailure(params, path);
  if (failure !== null) throw DomainError.validation(failure);
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
