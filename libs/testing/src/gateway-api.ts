import { ApiClient, HttpResponse } from './test-app';

/**
 * payment-gateway's HTTP API as tests drive it (its own tests and the cross-context tests in
 * test/): a client bound to one PBO, and the shapes of its answers as a client reads them.
 */

export interface AcceptanceView {
  acptId: string;
  acptName: string;
  hostMessageFormat: string;
  supportedPayments: string[];
  primaryMid: string | null;
  primaryTid: string | null;
  extraParams: Record<string, unknown>;
  entityStatus: string;
  tags: string[] | null;
  createdAt: string;
  updatedAt: string | null;
}

export interface ProfileView {
  profileId: string;
  profileName: string;
  providerReference: string | null;
  merchantName: string;
  merchantAddr: string | null;
  mcc: string | null;
  countryCode: string | null;
  timeZone: string | null;
  currency: string;
  entityStatus: string;
  createdAt: string;
  updatedAt: string | null;
}

export interface ProfileWithAcptView extends ProfileView {
  acceptances: AcceptanceView[];
  acptSelection: Record<string, string[]>;
}

export interface ProfilePageView {
  hasNext: boolean;
  pageSize: number;
  totalSize: number;
  currentCursor: string;
  nextCursor: string | null;
  data: ProfileView[];
}

export interface ProblemView {
  type: string;
  title: string;
  status: number;
  detail: string;
  requestId: string;
}

/** The API's base path for a gateway deployed under `namespace` (its GATEWAY_NAMESPACE). */
export function gatewayBase(namespace: string): string {
  return `/${namespace}/api/v1`;
}

/** A client of one PBO for the gateway API: paths are relative to its base path, bodies are not envelopes. */
export class GatewayClient {
  constructor(
    readonly api: ApiClient,
    readonly groupId: string,
    /** The API's base path, `/<namespace>/api/v1` (payment-gateway's test support gives it). */
    readonly base: string,
  ) {}

  async request<T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> {
    return (await this.api.request(method, `${this.base}${path}`, body, headers)) as unknown as HttpResponse<T>;
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

/** The body of a success, failing the test with the response when it is not the expected status. */
export function bodyOf<T>(response: HttpResponse<unknown>, status = 200): T {
  if (response.status !== status) throw new Error(`expected HTTP ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as T;
}
