import type { HttpAdapterHost } from '@nestjs/core';

/** An error as one wire format renders it: status, headers and the serialised body. */
export interface RenderedError {
  status: number;
  contentType: string;
  headers: Record<string, string>;
  /** Already serialised, so the content type alone decides what the client gets. */
  body: string;
}

/**
 * Renders any error thrown while serving `request` in one wire format. The request is only an
 * identity (its request id is keyed on it): a request the HTTP parser refused has no
 * FastifyRequest, and its error object stands in.
 */
export type ErrorRenderer = (exception: unknown, request: object) => RenderedError;

interface Rule {
  segments: string[];
  renderer: ErrorRenderer;
}

/** The path of a request URL: no query string, no trailing slash. */
export function pathOf(url: string | undefined): string {
  const path = (url ?? '/').split('?', 1)[0];
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

/**
 * Which error format serves which paths of one application. Rules are path prefixes matched
 * segment by segment (`/demo/api/v1` covers `/demo/api/v1/profiles`, not `/demo/api/v10`);
 * a `*` segment matches any one segment (a namespace in front of `api/v1`); `/` matches every
 * path. The most specific matching prefix wins; paths no rule covers keep the envelope.
 */
export class ErrorFormatRegistry {
  private readonly rules: Rule[] = [];
  private readonly parameterRules = new Map<string, (value: string) => boolean>();

  /**
   * Path parameter `name` of every route serves only values `accepts` takes (the gateway's
   * `:namespace`: one namespace per deployment, checked by a guard after routing). A 405 names a
   * method only when its route would take the URL's values: a URL whose parameter no route serves
   * is a 404 for every method, never a 405 naming methods that answer 404 (r14c item 3).
   */
  constrainParameter(name: string, accepts: (value: string) => boolean): void {
    this.parameterRules.set(name, accepts);
  }

  /** Whether every constrained parameter among a route's `params` has a value its rule takes. */
  acceptsParameters(params: Record<string, unknown>): boolean {
    return [...this.parameterRules].every(([name, accepts]) => !(name in params) || (typeof params[name] === 'string' && accepts(params[name])));
  }

  register(prefix: string, renderer: ErrorRenderer): void {
    const segments = segmentsOf(prefix);
    const existing = this.rules.findIndex((rule) => rule.segments.join('/') === segments.join('/'));
    if (existing >= 0) this.rules.splice(existing, 1);
    this.rules.push({ segments, renderer });
    // Longest prefix first; among equals, literal segments before wildcards.
    this.rules.sort((a, b) => b.segments.length - a.segments.length || wildcards(a.segments) - wildcards(b.segments));
  }

  rendererFor(path: string): ErrorRenderer | undefined {
    const segments = segmentsOf(path);
    return this.rules.find((rule) => rule.segments.length <= segments.length && rule.segments.every((segment, i) => segment === '*' || segment === segments[i]))
      ?.renderer;
  }
}

function wildcards(segments: string[]): number {
  return segments.filter((segment) => segment === '*').length;
}

const registries = new WeakMap<object, ErrorFormatRegistry>();

/**
 * The error formats of the application that owns `httpAdapter` (`app.getHttpAdapter()`, or
 * `HttpAdapterHost.httpAdapter` inside a module): one registry per application, so two apps in
 * one process (tests) never see each other's rules.
 */
export function errorFormatsOf(httpAdapter: object): ErrorFormatRegistry {
  let registry = registries.get(httpAdapter);
  if (!registry) {
    registry = new ErrorFormatRegistry();
    registries.set(httpAdapter, registry);
  }
  return registry;
}

/**
 * Registers `renderer` for the paths under `prefix` from inside a module (inject
 * `HttpAdapterHost`, call from `onModuleInit`). A no-op in an application context without HTTP.
 */
export function registerErrorFormat(adapterHost: HttpAdapterHost, prefix: string, renderer: ErrorRenderer): void {
  const adapter: object | undefined = adapterHost.httpAdapter;
  if (adapter) errorFormatsOf(adapter).register(prefix, renderer);
}

/** {@link ErrorFormatRegistry.constrainParameter} from inside a module (`onModuleInit`); a no-op without HTTP. */
export function constrainRouteParameter(adapterHost: HttpAdapterHost, name: string, accepts: (value: string) => boolean): void {
  const adapter: object | undefined = adapterHost.httpAdapter;
  if (adapter) errorFormatsOf(adapter).constrainParameter(name, accepts);
}
