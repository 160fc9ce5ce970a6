import { AuthConfig } from '@app/common';

export const BENCH_AUTH: AuthConfig = { secret: 'benchmark-secret-benchmark-secret-0123456789', deviceSecret: 'benchmark-device-secret-benchmark-device-secret' };
