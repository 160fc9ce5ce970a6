import { CONTRACT_TRANSFORM_OPTIONS, CONTRACT_VALIDATOR_OPTIONS, describeValidationErrors, fieldName, isContractClass } from '@app/contracts';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';
import { ArgumentMetadata, Injectable, PipeTransform, ValidationPipe } from '@nestjs/common';
import { DomainError } from '../errors';

/**
 * A hand-written decoder of a hot request body: given a JSON object body, the instance
 * class-transformer + class-validator would answer under {@link StrictValidationPipe}, or
 * undefined for any body it does not accept (the pipe then runs class-validator, which accepts it
 * or names the reason in its own words). It may refuse more than the decorators do, never less.
 */
export type BodyDecoder<T extends object> = (body: object) => T | undefined;

const BODY_DECODERS = new Map<Function, BodyDecoder<object>>();

/**
 * Makes {@link StrictValidationPipe} decode bodies of `dto` with `decode` first
 * (docs/decisions.md, "bench:sale: the processes' CPU per sale"). Only for a decoder proven, with
 * generated bodies, to accept nothing the decorators refuse and to answer what they answer.
 */
export function registerBodyDecoder<T extends object>(dto: new () => T, decode: BodyDecoder<T>): void {
  BODY_DECODERS.set(dto, decode);
}

/**
 * The project's validation: unknown fields rejected, no implicit type coercion of bodies, the
 * first failure reported as a 10000 envelope naming the field. Non-object bodies are refused
 * before class-validator sees them. A body whose class has a registered decoder
 * ({@link registerBodyDecoder}) is decoded by it, class-validator running only for a body it
 * does not accept.
 */
@Injectable()
export class StrictValidationPipe implements PipeTransform {
  private readonly inner = new ValidationPipe({
    ...CONTRACT_VALIDATOR_OPTIONS,
    transform: true,
    transformOptions: CONTRACT_TRANSFORM_OPTIONS,
    exceptionFactory: (errors) => DomainError.validation(describeValidationErrors(errors)),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && isContractClass(metadata.metatype)) {
      if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw DomainError.validation('request body must be a JSON object');
      }
      const decoded = BODY_DECODERS.get(metadata.metatype)?.(value);
      if (decoded !== undefined) return decoded;
    }
    if ((metadata.type === 'body' || metadata.type === 'query') && isContractClass(metadata.metatype) && isPlainObject(value)) {
      const unknown = firstUnknownPath(value, metadata.metatype, '', 0);
      if (unknown !== undefined) throw DomainError.validation(`${unknown} is not an accepted field`);
    }
    return this.inner.transform(value, metadata);
  }
}

/**
 * The body of an operation that takes none (`POST /api/v2/current`): no body, or `{}`, as a
 * client that always sends JSON does; any field is refused as an unknown one would be on any
 * other route, anything else as not a body this operation takes.
 */
@Injectable()
export class EmptyBodyPipe implements PipeTransform {
  transform(value: unknown): undefined {
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw DomainError.validation('this operation takes no request body (or {})');
    for (const key in value) {
      if (Object.prototype.hasOwnProperty.call(value, key)) throw DomainError.validation(`${fieldName(key)} is not an accepted field`);
    }
    return undefined;
  }
}

/**
 * The class `@Type` gives `type`'s nested `property`, read through class-transformer's public API
 * (its metadata store is not exported): an empty object and a one-element array are transformed,
 * and the class the value (or element) comes out as is the nested DTO. Once per class and property.
 */
function nestedClassOf(type: Function, property: string): Function | undefined {
  for (const probe of [{}, [{}]]) {
    try {
      const value = (plainToInstance(type as new () => object, { [property]: probe }) as Record<string, unknown>)[property];
      const element: unknown = Array.isArray(value) ? value[0] : value;
      if (element !== null && typeof element === 'object' && element.constructor !== Object) return element.constructor;
    } catch {
      // A transform that cannot take the probe: left to the validator.
    }
  }
  return undefined;
}

/** What the early check knows of a DTO class: the properties its rules name, and those validated as nested DTOs (with their class). */
interface Shape {
  known: ReadonlySet<string>;
  nested: ReadonlyArray<readonly [string, Function]>;
}

const shapes = new WeakMap<object, Shape>();

/** Deeper than any DTO nests; below it the validator's own walk decides (the body's value cap bounds it). */
const MAX_NESTING = 8;

function shapeOf(type: Function): Shape {
  let shape = shapes.get(type);
  if (shape === undefined) {
    const rules = getMetadataStorage().getTargetValidationMetadatas(type, '', false, false);
    const nested: Array<readonly [string, Function]> = [];
    for (const property of new Set(rules.filter((rule) => rule.type === 'nestedValidation').map((rule) => rule.propertyName))) {
      const nestedType = nestedClassOf(type, property);
      if (isContractClass(nestedType)) nested.push([property, nestedType]);
    }
    shape = { known: new Set(rules.map((rule) => rule.propertyName)), nested };
    shapes.set(type, shape);
  }
  return shape;
}

function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A key under `parent` as class-validator's errors name it (`items[1].emvId`), the client's key bounded. */
function pathOf(parent: string, key: string): string {
  const name = fieldName(key);
  if (parent === '') return name;
  return /^\d+$/.test(name) ? `${parent}[${name}]` : `${parent}.${name}`;
}

/**
 * The path of the first key of `value` no validation rule of `type` names (what class-validator's
 * whitelist refuses, in the same words), this object's keys first, then those of the nested DTOs
 * its rules validate (`@ValidateNested` with `@Type`), objects and each object of an array, at
 * any depth: looked up before class-transformer copies the body and class-validator walks it,
 * so a body of 10,000 unknown keys, at the top or in a nested object, costs a pass over its keys,
 * not their transformation. Undefined when every key is known, or when `type` has no rules (left
 * to the validator's own answer).
 */
function firstUnknownPath(value: object, type: Function, parent: string, depth: number): string | undefined {
  const { known, nested } = shapeOf(type);
  if (known.size === 0) return undefined;
  for (const key in value) {
    if (Object.prototype.hasOwnProperty.call(value, key) && !known.has(key)) return pathOf(parent, key);
  }
  if (depth >= MAX_NESTING) return undefined;
  for (const [property, nestedType] of nested) {
    if (!Object.prototype.hasOwnProperty.call(value, property)) continue;
    const child: unknown = (value as Record<string, unknown>)[property];
    const at = pathOf(parent, property);
    const found = Array.isArray(child)
      ? firstInArray(child, nestedType, at, depth + 1)
      : isPlainObject(child)
        ? firstUnknownPath(child, nestedType, at, depth + 1)
        : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

function firstInArray(items: readonly unknown[], type: Function, parent: string, depth: number): string | undefined {
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    const found = isPlainObject(item) ? firstUnknownPath(item, type, `${parent}[${index}]`, depth) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}
