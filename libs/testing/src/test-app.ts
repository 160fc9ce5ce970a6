import { AuthConfig, developmentFieldCipher, EVERY_GROUP, signPboToken } from '@app/common';
import { createPlatformApp, PlatformOptions } from '@app/runtime';
import type { LoggerService } from '@nestjs/common';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from './test-database';

/** The secret test apps verify tokens with. */
export const TEST_AUTH: AuthConfig = { secret: 'test-secret-that-is-long-enough-for-hs256-0123456789', deviceSecret: 'test-device-secret-that-is-long-enough-0123456789' };

export interface HttpResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface EnvelopeBody<T = unknown> {
  msg: string;
  code: number;
  data?: T;
}

/** A small HTTP client bound to one PBO's token. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string | undefined,
  ) {}

  async request<T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<EnvelopeBody<T>>> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (this.token) (init.headers as Record<string, string>).authorization = `Bearer ${this.token}`;
    if (body !== undefined) {
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const response = await fetch(`${this.baseUrl}${path}`, init);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the test sees the raw text
    }
    return { status: response.status, body: parsed as EnvelopeBody<T>, headers: response.headers };
  }

  get<T = unknown>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body ?? {});
  }
  put<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body ?? {});
  }
  delete<T = unknown>(path: string) {
    return this.request<T>('DELETE', path);
  }
}

/** Platform options with every platform module: what a test app is given. */
export type TestPlatformOptions = PlatformOptions & Required<Pick<PlatformOptions, 'auth' | 'cipher' | 'mail'>>;

/** Platform options for a test app: test secrets, development cipher, e-mail as files in a temporary folder, in-process messaging. */
export function testPlatformOptions(databaseUrl: string, overrides: Partial<TestPlatformOptions> = {}): TestPlatformOptions {
  return {
    databaseUrl,
    auth: TEST_AUTH,
    cipher: developmentFieldCipher(),
    mail: { transport: 'file', directory: mkdtempSync(join(tmpdir(), 'softpos-test-mail-')) },
    messaging: { transport: 'in-process' },
    // One context alone has no merchant-management to ask; a test of the check itself asks for it.
    groups: EVERY_GROUP,
    ...overrides,
  };
}

export interface TestApp {
  app: NestFastifyApplication;
  options: TestPlatformOptions;
  baseUrl: string;
  database: TestDatabase;
  /** A client with no token. */
  anonymous: ApiClient;
  clientFor(groupId: string): Promise<ApiClient>;
  close(): Promise<void>;
}

/**
 * Starts an application module on a fresh database and a free port, over real HTTP, as a user
 * would reach it. Without logs, unless `logger` is given (a test that reads what the app logs).
 */
export async function startTestApp(
  moduleFor: (options: PlatformOptions) => unknown,
  overrides: Partial<TestPlatformOptions> = {},
  logger: LoggerService | false = false,
): Promise<TestApp> {
  const database = await createTestDatabase('e2e');
  const options = testPlatformOptions(database.url, overrides);
  // A test may ask for a proxy in front (TRUST_PROXY=true) as a deployment would.
  const app = await createPlatformApp(moduleFor(options) as never, { logger, trustProxy: process.env.TRUST_PROXY === 'true' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = await app.getUrl();
  const normalized = baseUrl.replace('[::1]', '127.0.0.1');
  return {
    app,
    options,
    baseUrl: normalized,
    database,
    anonymous: new ApiClient(normalized, undefined),
    clientFor: async (groupId: string) => new ApiClient(normalized, await signPboToken(TEST_AUTH, groupId, 3600)),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

/** Runs SQL against a test app's database (for asserting that nothing was written). */
export async function queryDatabase<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const dataSource = new DataSource({ type: 'postgres', url });
  await dataSource.initialize();
  try {
    return (await dataSource.query(sql, params)) as T[];
  } finally {
    await dataSource.destroy();
  }
}
