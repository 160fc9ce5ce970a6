import { ValidateBy, ValidateIf, ValidationError, ValidationOptions } from 'class-validator';
import { fieldName } from './client-text';
import { acceptanceParamFailure, carriesHostText, HOST_TEXT_RULE } from './host-formats';
import { isIanaTimeZone, isIsoCountry, isIsoCurrency } from './iso-codes';
import { isPaymentMethodCode, PAYMENT_METHOD_CODES } from './payment-methods';

/**
 * Validation shared by every boundary: the vocabulary's rules as class-validator
 * decorators, and the one description of a failure, so an HTTP body (`@app/common`'s pipe) and a
 * NATS payload ({@link decodeContract}) are refused in the same words.
 */

function vocabularyRule(name: string, test: (value: unknown) => boolean, message: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name, validator: { validate: test, defaultMessage: () => message } }, options);
}

/** Present, but may be null: in a contract a null clears the receiver's value, a missing field is a producer bug. */
export const NullableButPresent = (): PropertyDecorator => ValidateIf((_object: object, value: unknown) => value !== null);

/** An ISO 4217 alpha code of a settlement currency, upper case (`MYR`). */
export const IsIsoCurrency = (options?: ValidationOptions) =>
  vocabularyRule('isIsoCurrency', isIsoCurrency, '$property must be an ISO 4217 currency code such as MYR', options);

/** ISO 3166-1 alpha-2, upper case (`MY`). */
export const IsIsoCountry = (options?: ValidationOptions) =>
  vocabularyRule('isIsoCountry', isIsoCountry, '$property must be an ISO 3166-1 alpha-2 country code such as MY', options);

/** A free text that reaches field 43 (a merchant's name): still a letter or digit once reduced to what a host gets (`hostText`). */
export const CarriesHostText = (options?: ValidationOptions) =>
  vocabularyRule('carriesHostText', (value) => typeof value !== 'string' || carriesHostText(value), `$property ${HOST_TEXT_RULE}`, options);

/** IANA time zone name (`Asia/Kuala_Lumpur`). */
export const IsIanaTimeZone = (options?: ValidationOptions) =>
  vocabularyRule('isIanaTimeZone', isIanaTimeZone, '$property must be an IANA time zone such as Asia/Kuala_Lumpur', options);

/** Payment method code `01` to `06`. */
export const IsPaymentMethodCode = (options?: ValidationOptions) =>
  vocabularyRule('isPaymentMethodCode', isPaymentMethodCode, `$property must be one of the payment method codes ${PAYMENT_METHOD_CODES.join(', ')}`, options);

/** An acceptance's `extraParams`: its acquirer parameters (`acqInstId`, `subMchDba`) meet `ACCEPTANCE_PARAM_RULES` (host-formats.ts); the message names the key. */
export const HasValidAcceptanceParams = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'hasValidAcceptanceParams',
      validator: {
        validate: (value: unknown) => typeof value !== 'object' || value === null || acceptanceParamFailure(value as Record<string, unknown>, '') === null,
        defaultMessage: (args) => `$property${acceptanceParamFailure(args?.value as Record<string, unknown>, '') ?? ''}`,
      },
    },
    options,
  );

/** Constraint names that say "wrong type", reported first. */
const TYPE_CONSTRAINTS = ['isDefined', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isPlainObject', 'isJsonObjectString', 'isIn', 'isNotEmpty'];

/** Field path and first failed rule of a class-validator error tree, e.g. `paymentMethods[0].emvs[1].emvId must be a number`. */
export function describeValidationErrors(errors: ValidationError[], parentPath = ''): string {
  for (const error of errors) {
    // An error of the whole value names no property (class-validator's unknownValue: a class with no rules at all).
    if (typeof error.property !== 'string') return parentPath === '' ? 'request is invalid' : `${parentPath} is invalid`;
    // The property is the client's key when the field is unknown: named only as fieldName bounds it.
    const property = fieldName(error.property);
    const path = parentPath ? (/^\d+$/.test(property) ? `${parentPath}[${property}]` : `${parentPath}.${property}`) : property;
    if (error.constraints) {
      const constraints = error.constraints;
      if ('whitelistValidation' in constraints) return `${path} is not an accepted field`;
      // Optional fields skip validation when absent, so an absent value here is a required one.
      if (error.value === undefined) return `${path} is required`;
      if (error.value === null) return `${path} must not be null`;
      // A wrong type is reported before complaints about the value's shape.
      const key = TYPE_CONSTRAINTS.find((k) => k in constraints) ?? Object.keys(constraints)[0];
      const message = constraints[key];
      return message.startsWith(error.property) ? `${path}${message.slice(error.property.length)}` : `${path}: ${message}`;
    }
    if (error.children?.length) return describeValidationErrors(error.children, path);
  }
  return 'request is invalid';
}
