import { DomainError } from '@app/common';
import { countryNumeric, countryOfCurrency, countryOfTimeZone, currencyInfo, PaymentMethodCode, paymentMethodName } from '@app/contracts';
import { AcceptanceSnapshot, PboSettings, ProfileMerchant } from './acceptance';
import { BindingRecord } from './binding-record';
import { effectiveEnablerFields } from '../shared/enabler-params';
import { acceptanceParamsOf } from '../shared/acceptance-params';

export { enablerFields } from '../shared/enabler-params';

/** What the builder needs of the device. */
export interface DeviceSelection {
  /** Method codes the device accepts; null means every bound method. */
  methodList: string[] | null;
  /** `{acquirers: {<profileId>: {<field>: <value>}}, allAcquirers: {<field>: <value>}}`. */
  extParams: Record<string, unknown> | null;
}

function objectOr(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A device's fields for one acquirer: its entry under `acquirers`, with the fields kept for every acquirer over it. */
function acquirerFields(extParams: Record<string, unknown> | null, profileId: number): Record<string, unknown> {
  return { ...objectOr(objectOr(extParams?.acquirers)[String(profileId)]), ...objectOr(extParams?.allAcquirers) };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/**
 * The host message format of an acceptance: the profile's enablerMsgFormat when set; for a
 * profile that goes through this gateway (SVC_ENABLER) the PBO's gateway format; otherwise the
 * profile's own host format. (A real 8583 host is never silently replaced by MOCK.)
 */
export function hostMessageFormatOf(binding: Pick<BindingRecord, 'enablerMsgFormat' | 'connMessageFormat'>, pbo: Pick<PboSettings, 'gatewayFormat'>): string {
  if (binding.enablerMsgFormat) return binding.enablerMsgFormat;
  return binding.connMessageFormat === 'SVC_ENABLER' ? pbo.gatewayFormat : binding.connMessageFormat;
}

/**
 * Builds the activation profile of a device (docs/architecture.md, flow 2): one acceptance per
 * acquirer profile bound to the merchant whose methods match the device's methodList. When a
 * matching profile's enablerParams fields are missing from the device's extParams, `strict`
 * (device create and update) refuses with 10000; otherwise (a re-push after a payment-config
 * change) that acceptance is left out until the device's extParams are completed.
 */
export function buildAcceptances(bindings: BindingRecord[], pbo: PboSettings, device: DeviceSelection, strict = true): AcceptanceSnapshot[] {
  const byProfile = new Map<number, BindingRecord[]>();
  for (const binding of bindings) byProfile.set(binding.acquirerProfileId, [...(byProfile.get(binding.acquirerProfileId) ?? []), binding]);
  const acceptances: AcceptanceSnapshot[] = [];
  for (const [profileId, profileBindings] of [...byProfile.entries()].sort(([a], [b]) => a - b)) {
    const codes = new Set<string>();
    for (const binding of profileBindings) {
      for (const method of binding.methods) {
        if (device.methodList === null || device.methodList.includes(method.paymentMethodCode)) codes.add(method.paymentMethodCode);
      }
    }
    if (codes.size === 0) continue;
    const first = profileBindings[0];
    const fields = acquirerFields(device.extParams, profileId);
    const missing = effectiveEnablerFields(first.enablerParams, pbo.enablerParams).find((field) => text(fields[field]) === null);
    if (missing !== undefined) {
      if (!strict) continue;
      throw DomainError.validation(`extParams.acquirers.${profileId}.${missing} is required by acquirer profile ${profileId} (${first.profileName})`);
    }
    const paymentMethodCodes = [...codes].sort();
    acceptances.push({
      acquirerProfileId: profileId,
      acptName: first.profileName,
      hostMessageFormat: hostMessageFormatOf(first, pbo),
      paymentMethodCodes,
      supportedPayments: paymentMethodCodes.map((code) => paymentMethodName(code as PaymentMethodCode)),
      primaryMid: text(fields.acqMid) ?? profileBindings.map((b) => b.mid).find((mid) => mid) ?? pbo.defaultMid ?? null,
      primaryTid: text(fields.acqTid),
      // The acquiring institution id and sub-merchant the host is told (fields 32, 43): the device's, else the acquirer profile's.
      extraParams: { ...(first.connUrl ? { connUrl: first.connUrl } : {}), ...acceptanceParamsOf(fields, first.connExtraParams) },
    });
  }
  return acceptances;
}

/** What the EMV defaults are derived from. */
export type EmvDefaultsSource = Pick<ProfileMerchant, 'country' | 'currency' | 'timeZone'>;

/**
 * The terminal's country (ISO 3166 alpha-2, for `terminalCountryCode`): the merchant's country,
 * else the country of its time zone, else the country its currency is the national currency of
 * (docs/decisions.md, "Spec conformance left over"); undefined when none of them names one.
 */
export function terminalCountryOf(merchant: EmvDefaultsSource): string | undefined {
  return merchant.country ?? countryOfTimeZone(merchant.timeZone) ?? countryOfCurrency(merchant.currency);
}

/** EMV terminal parameters a device gets when it sets none itself. */
export function defaultEmvParams(merchant: EmvDefaultsSource): Record<string, string> {
  const params: Record<string, string> = {
    amexFloorLimit: '0',
    txnCurrencyCode: (currencyInfo(merchant.currency)?.numeric ?? '').padStart(4, '0'),
    terminalType: '22',
    terminalCapability: 'E0F8C8',
    emvFlags: '0',
  };
  const alpha2 = terminalCountryOf(merchant);
  const country = alpha2 === undefined ? undefined : countryNumeric(alpha2);
  if (country) params.terminalCountryCode = country.padStart(4, '0');
  return params;
}

/** Whether a device's EMV parameters will carry a terminalCountryCode: its own, else the merchant's derived one. */
export function hasTerminalCountry(merchant: EmvDefaultsSource, emvParams: Record<string, string> | null | undefined): boolean {
  return Boolean(emvParams?.terminalCountryCode) || terminalCountryOf(merchant) !== undefined;
}

/**
 * Refuses (10000) device EMV parameters that would go out without a terminalCountryCode: the
 * device sets none and the merchant gives none ({@link terminalCountryOf}).
 */
export function requireTerminalCountry(merchant: EmvDefaultsSource, emvParams: Record<string, string> | null | undefined): void {
  if (hasTerminalCountry(merchant, emvParams)) return;
  throw DomainError.validation(
    `emvParams.terminalCountryCode is required: the merchant has no country, and neither its time zone (${merchant.timeZone}) nor its currency (${merchant.currency}) names one; set the merchant's country or send emvParams.terminalCountryCode`,
  );
}

/** The AIDs of the EMV configs bound for the methods the device's acceptances carry. */
export function emvAidsOf(bindings: BindingRecord[], acceptances: AcceptanceSnapshot[]): { aid: string; paymentMethod: string }[] {
  const result: { aid: string; paymentMethod: string }[] = [];
  const seen = new Set<string>();
  for (const acceptance of acceptances) {
    for (const binding of bindings.filter((b) => b.acquirerProfileId === acceptance.acquirerProfileId)) {
      for (const method of binding.methods.filter((m) => acceptance.paymentMethodCodes.includes(m.paymentMethodCode))) {
        for (const emv of method.emvs) {
          for (const aid of (emv.aid ?? '').split(',').filter(Boolean)) {
            const key = `${aid}/${method.paymentMethodCode}`;
            if (!seen.has(key)) {
              seen.add(key);
              result.push({ aid, paymentMethod: method.paymentMethodCode });
            }
          }
        }
      }
    }
  }
  return result;
}
