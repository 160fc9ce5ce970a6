import { DEFAULT_GATEWAY_NAMESPACE, PlatformOptions } from '@app/runtime';
import { ApiClient, HttpResponse, startTestApp, TestApp, unique } from '@app/testing';
import { PaymentGatewayAppModule } from '../src/app.module';

/** The gateway API's base path in tests (test apps serve the default GATEWAY_NAMESPACE). */
export const GATEWAY_BASE = `/${DEFAULT_GATEWAY_NAMESPACE}/api/v1`;

/** A client of one PBO for the gateway API: paths are relative to {@link GATEWAY_BASE}, bodies are not envelopes. */
export class GatewayClient {
  constructor(
    readonly api: ApiClient,
    readonly groupId: string,
  ) {}

  async request<T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> {
    return (await this.api.request(method, `${GATEWAY_BASE}${path}`, body, headers)) as unknown as HttpResponse<T>;
  }

  get<T = unknown>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = unknown>(path: string, body: unknown) {
    return this.request<T>('POST', path, body);
  }
  put<T = unknown>(path: string, body: unknown) {
    return this.request<T>('PUT', path, body);
  }
  patch<T = unknown>(path: string, body: unknown) {
    return this.request<T>('PATCH', path, body);
  }
}

export interface GatewayTestApp extends TestApp {
  /** A client holding a token of a new PBO group (the gateway knows groups only from tokens and upserts). */
  newPbo(): Promise<GatewayClient>;
  /** A client for `groupId`'s token. */
  clientOf(groupId: string): Promise<GatewayClient>;
}

/** payment-gateway on its own, on a fresh database, over real HTTP. */
export async function startGateway(overrides: Partial<PlatformOptions> = {}): Promise<GatewayTestApp> {
  const testApp = await startTestApp((options) => PaymentGatewayAppModule.register(options), overrides);
  const clientOf = async (groupId: string) => new GatewayClient(await testApp.clientFor(groupId), groupId);
  return { ...testApp, clientOf, newPbo: () => clientOf(unique('grp_')) };
}

/** The body of a success, failing the test with the response when it is not the expected status. */
export function bodyOf<T>(response: HttpResponse<unknown>, status = 200): T {
  if (response.status !== status) throw new Error(`expected HTTP ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as T;
}

/** Asserts a problem-details answer with this status and a detail matching `detail`. */
export function expectProblem(response: { status: number; body: unknown }, status: number, detail: RegExp): void {
  expect(response.status).toBe(status);
  expect(response.body).toMatchObject({ status, detail: expect.stringMatching(detail) as string });
}
