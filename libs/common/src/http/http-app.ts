import { INestApplication, LoggerService, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { flag, integer, oneOf, text, ValuesOf } from '../config/env-schema';
import { DomainError } from '../errors';
import { StrictValidationPipe } from '../validation';
import { UNSUPPORTED_MEDIA_TYPE_MESSAGE, UNSUPPORTED_CONTENT_ENCODING_MESSAGE } from './classify-error';
import { handleClientError, handleUnmetExpectation } from './client-error';
import { EnvelopeExceptionFilter } from './envelope-exception.filter';
import { errorFormatsOf } from './error-formats';
import { installHostileInputGuards } from './json-body';
import { securityHeaderList, securityHeaders } from './security-headers';

/** Longest path parameter a route takes (Fastify's `maxParamLength`); a longer one is refused with 10000. */
export const MAX_PATH_PARAMETER_LENGTH = 256;

/** What an error Fastify raises before routing means to the client, without echoing the URL. */
function frameworkError(error: Error & { code?: string }): DomainError {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return DomainError.validation(`a path parameter is longer than ${MAX_PATH_PARAMETER_LENGTH} characters`);
  if (error.code === 'FST_ERR_BAD_URL') return DomainError.validation('the URL has a percent-escape that is not UTF-8');
  return DomainError.validation('the request cannot be routed');
}

/** Largest accepted request body; larger ones are refused with 10000 before parsing. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

const LOG_LEVELS = ['error', 'warn', 'log', 'debug'] as const;

/** LOG_LEVEL=debug|log|warn|error (default log): that level and the ones above it. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The variables of a process's logs. */
export const logVariables = { LOG_LEVEL: oneOf(LOG_LEVELS, 'log') };

/** The variables of an HTTP app; HOST defaults to `defaultHost` (loopback for standalone, all interfaces for the apps). */
export function httpVariables(defaultHost: string) {
  return {
    PORT: integer(3000, 0, 65535),
    HOST: text(defaultHost),
    ...logVariables,
    /** Believe X-Forwarded-For (activation throttling, logs): only behind a proxy that sets it, as in k8s. */
    TRUST_PROXY: flag(false),
  };
}

/** What {@link httpVariables} configure. */
export interface HttpSettings {
  port: number;
  host: string;
  logLevel: LogLevel;
  trustProxy: boolean;
}

export function httpSettingsFrom(values: ValuesOf<ReturnType<typeof httpVariables>>): HttpSettings {
  return { port: values.PORT, host: values.HOST, logLevel: values.LOG_LEVEL, trustProxy: values.TRUST_PROXY };
}

/** The Nest log levels shown at `level`. */
export function logLevelsFrom(level: LogLevel): LogLevel[] {
  return LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(level) + 1);
}

export interface HttpAppOptions {
  /** false: no logs; a LoggerService: that one, at the levels it sets (a test that reads the logs); default Nest's console logger at `logLevel`. */
  logger?: boolean | LoggerService;
  /** Default `log`. */
  logLevel?: LogLevel;
  /** X-Forwarded-For gives the client address (TRUST_PROXY); default false. */
  trustProxy?: boolean;
  /**
   * Nest closes the application on SIGTERM / SIGINT and then re-sends the signal to end the
   * process (default true). An entry point with its own signal handling (standalone, which must
   * stop its embedded PostgreSQL after the application) turns this off, or the re-sent signal
   * ends the process before its own shutdown is done.
   */
  shutdownHooks?: boolean;
}

/**
 * Creates a Fastify-backed Nest application with the house rules: envelope errors from every
 * layer (Fastify's own body parsing included), strict validation, a body limit.
 */
export async function createHttpApp(rootModule: Type<unknown> | ReturnType<typeof Object>, options: HttpAppOptions = {}): Promise<NestFastifyApplication> {
  // The client address (activation throttling, logs) comes from X-Forwarded-For only behind a
  // proxy that sets it (TRUST_PROXY=true, as in k8s); otherwise a client could pick its own.
  // Errors Fastify raises before routing (a URL escape that is not UTF-8, an over-long path
  // parameter) leave in the path's error format too, never as Fastify's own body echoing the URL.
  const adapter: FastifyAdapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // Node answers an HTTP/1.1 request without Host with a bare 400 of its own; ours says why in
    // the path's format (refuseHostless).
    http: { requireHostHeader: false },
    trustProxy: options.trustProxy ?? false,
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    // Fastify runs no hooks for these: the security headers are set here on the raw response.
    frameworkErrors: (error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply) =>
      securityHeaders(request.raw, reply.raw, () => {
        void reply.header('cache-control', 'no-store');
        new EnvelopeExceptionFilter(errorFormatsOf(adapter), adapter.getInstance()).respond(frameworkError(error), request, reply);
      }),
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as Type<unknown>, adapter, {
    logger: options.logger === false ? false : typeof options.logger === 'object' ? options.logger : logLevelsFrom(options.logLevel ?? 'log'),
    abortOnError: false,
    // Bodies are JSON only: no urlencoded parser, so a form post is refused (415, code 10000; documented by buildOpenApiDocument).
    bodyParser: false,
  });
  configureHttpApp(app, { shutdownHooks: options.shutdownHooks });
  return app;
}

/**
 * An HTTP/1.1 request must name its Host once (RFC 9112, section 3.2: a server answers 400 to one
 * without, or with more than one): refused with a 400 in the path's format (Node's own check,
 * which answers a bare 400, is off in createHttpApp; Node keeps the first of several Host
 * headers, so they are counted in the raw ones).
 */
async function refuseHostless(request: FastifyRequest): Promise<void> {
  const raw = request.raw;
  if (raw.httpVersionMajor === 1 && raw.httpVersionMinor === 1 && raw.headers.host === undefined)
    throw DomainError.validation('the request has no Host header, which HTTP/1.1 requires');
  let hosts = 0;
  for (let index = 0; index < raw.rawHeaders.length; index += 2) if (raw.rawHeaders[index].length === 4 && raw.rawHeaders[index].toLowerCase() === 'host') hosts += 1;
  if (hosts > 1) throw DomainError.validation('the request has more than one Host header');
}

export function configureHttpApp(app: NestFastifyApplication, options: Pick<HttpAppOptions, 'shutdownHooks'> = {}): void {
  // Contexts may claim path prefixes for another error format (errorFormatsOf / registerErrorFormat).
  const formats = errorFormatsOf(app.getHttpAdapter());
  app.useGlobalFilters(new EnvelopeExceptionFilter(formats, app.getHttpAdapter().getInstance()));
  app.useGlobalPipes(new StrictValidationPipe());
  const fastify = app.getHttpAdapter().getInstance();
  installHostileInputGuards(fastify);
  // An application created with Nest's body parser on would register its own JSON parser at init,
  // over ours (Fastify refuses the second): ours is the only JSON parser.
  (app.getHttpAdapter() as unknown as { registerJsonContentParser: () => void }).registerJsonContentParser = () => undefined;
  installResponseHeaders(fastify);
  // Requests Node's HTTP parser refuses never reach Fastify's routing: Fastify's own handler
  // answered them in its own JSON; ours answers in the path's error format.
  const server = app.getHttpServer();
  server.removeAllListeners('clientError');
  server.on('clientError', handleClientError(formats));
  server.on('checkExpectation', handleUnmetExpectation(formats));
  fastify.addHook('onRequest', refuseHostless);
  if (options.shutdownHooks !== false) app.enableShutdownHooks();
  // Nest routes Fastify's own errors (JSON parsing, content type, body size) through the
  // global filter too, so they leave in the same envelope.
}

/**
 * Security headers on every response (helmet's, with a content security policy that lets the
 * Swagger UI at /docs run), and `Cache-Control: no-store` unless a route set its own: every
 * answer of these APIs is one tenant's data, and some carry activation codes, device tokens or
 * webhook secrets, which no browser or proxy may keep.
 * Helmet's headers depend on nothing of the request, so they are read once from helmet's own
 * middleware (`securityHeaderList`) and set on the raw response in one synchronous hook, as
 * helmet sets them: `@fastify/helmet` built a new helmet middleware on every request (parsing the
 * policy again) in two hooks, 3 % of the gateway's CPU per sale (docs/decisions.md, "bench:sale:
 * per-request layers").
 */
function installResponseHeaders(fastify: FastifyInstance): void {
  const headers = securityHeaderList();
  fastify.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
  fastify.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    return payload;
  });
}

/** The OpenAPI document of an application (served at /docs and written by `npm run openapi`). */
export function buildOpenApiDocument(app: INestApplication, title: string, description: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(title)
    .setDescription(description)
    .setVersion('1')
    // Relative: the document describes whichever host serves it (each context, or standalone).
    .addServer('/', 'the server this document is served from')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: (controllerKey, methodKey) => `${controllerKey}_${methodKey}` });
  documentEdgeErrors(document);
  nullableReferences(document);
  return document;
}

/** What admits null, and only null, under OpenAPI 3.0.3 (`nullable` acts only beside a `type`). */
const ONLY_NULL = { type: 'object', nullable: true, enum: [null] } as const;

/**
 * Nest writes a nullable property of a class type as `{type: object, allOf: [{$ref}], nullable:
 * true}`, which under OpenAPI 3.0.3 admits no null: `nullable` widens only the `type` beside it,
 * and the referenced schema still refuses null. Each such schema becomes `anyOf: [{$ref}, {type:
 * object, nullable: true, enum: [null]}]` (its description and other annotations kept), which a
 * strict validator and redocly both read as "the object or null"; a nullable enum lists null
 * among its values, for the same reason (docs/decisions.md, "Nullable references in the OpenAPI
 * documents").
 */
export function nullableReferences(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(nullableReferences);
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  for (const value of Object.values(schema)) nullableReferences(value);
  if (schema.nullable !== true) return;
  // An enum is not widened by `nullable` either: null is listed among its values.
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...(schema.enum as unknown[]), null];
  const allOf = schema.allOf as unknown[] | undefined;
  const reference =
    typeof schema.$ref === 'string' ? { $ref: schema.$ref } : Array.isArray(allOf) && allOf.length === 1 && !schema.properties ? (allOf[0] as { $ref?: unknown }) : undefined;
  if (reference === undefined || typeof reference.$ref !== 'string') return;
  for (const key of ['nullable', 'allOf', '$ref', 'type']) delete schema[key];
  schema.anyOf = [reference, { ...ONLY_NULL, enum: [null] }];
}

const BODY_METHODS = ['post', 'put', 'patch', 'delete'] as const;

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;

/** `status` documented on `operation` unless it is already, in the format of its first documented error among `formatOf`. */
function documentResponse(operation: Operation, status: string, description: string, formatOf: string[]): void {
  if (operation.responses[status]) return;
  const errors = Object.entries(operation.responses).filter(([code]) => /^4\d\d$/.test(code));
  const source = [...formatOf.map((code) => operation.responses[code]), ...errors.map(([, response]) => response)].find((response) => response !== undefined && 'content' in response) as
    | { content?: unknown }
    | undefined;
  operation.responses[status] = { description, ...(source?.content ? { content: source.content } : {}) } as Operation['responses'][string];
}

/**
 * Answers of the edge that every operation of a kind gives, documented here once rather than on
 * each handler, in the format of the operation's own errors: 415 (code 10000) for a body that is
 * not JSON on every operation a body can be sent to; 502 (code 15000) on every operation behind a
 * token, when the PBO directory (merchant-management's `mms.group.verify.v1`) does not answer
 * while the token's group is checked and the group is not known from the last five minutes.
 */
function documentEdgeErrors(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      if ((BODY_METHODS as readonly string[]).includes(method)) {
        documentResponse(
          operation,
          '415',
          `a body sent with a Content-Type other than application/json (code 10000 in the envelope): "${UNSUPPORTED_MEDIA_TYPE_MESSAGE}"; or with a Content-Encoding other than identity (bodies are not decoded; the answer says Accept-Encoding: identity): "${UNSUPPORTED_CONTENT_ENCODING_MESSAGE}"`,
          ['400'],
        );
      }
      if (operation.security?.some((requirement) => Object.keys(requirement).length > 0)) {
        documentResponse(
          operation,
          '502',
          "the PBO directory (merchant-management) did not answer while the token's group was checked; try again (code 15000 in the envelope)",
          ['401'],
        );
      }
    }
  }
}

export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json' });
}
