import { ClientProxy } from '@nestjs/microservices';
import fc from 'fast-check';
import { of, throwError } from 'rxjs';
import { HOST_ADDRESS_ANSWER_TTL_MS, HostAddressClient } from './host-address.client';

/** A client whose connector answers `allowed` with a host key naming the request, and counts the asks. */
function connector(fail = false): { client: ClientProxy; asked: string[] } {
  const asked: string[] = [];
  const client = {
    send: (_subject: string, payload: { groupId: string; connUrl: string }) => {
      asked.push(payload.connUrl);
      return fail ? throwError(() => new Error('no responders')) : of({ allowed: true, hostKey: `${payload.groupId}|${payload.connUrl}` });
    },
  } as unknown as ClientProxy;
  return { client, asked };
}

describe('HostAddressClient', () => {
  afterEach(() => jest.useRealTimers());

  it('should ask the connector once per PBO, format and address within the answer TTL, and answer each question its own answer', async () => {
    const question = fc.record({ groupId: fc.constantFrom('grp_a', 'grp_b'), hostMessageFormat: fc.constantFrom('ISO8583', 'MPGS_AP'), connUrl: fc.constantFrom('tcp://a:1', 'tcp://b:2') });
    await fc.assert(
      fc.asyncProperty(fc.array(question, { minLength: 1, maxLength: 30 }), async (questions) => {
        const { client, asked } = connector();
        const policy = new HostAddressClient(client);
        for (const request of questions) expect(await policy.check(request)).toEqual({ allowed: true, hostKey: `${request.groupId}|${request.connUrl}` });
        expect(asked).toHaveLength(new Set(questions.map((request) => JSON.stringify(request))).size);
      }),
    );
  });

  it('should ask again once the answer is older than its TTL, and never keep a failure', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { client, asked } = connector();
    const policy = new HostAddressClient(client);
    const request = { groupId: 'grp_a', hostMessageFormat: 'ISO8583' as const, connUrl: 'tcp://a:1' };
    await policy.check(request);
    jest.setSystemTime(1_000_000 + HOST_ADDRESS_ANSWER_TTL_MS - 1);
    await policy.check(request);
    expect(asked).toHaveLength(1);
    jest.setSystemTime(1_000_000 + HOST_ADDRESS_ANSWER_TTL_MS + 1);
    await policy.check(request);
    expect(asked).toHaveLength(2);

    const failing = connector(true);
    const refused = new HostAddressClient(failing.client);
    await expect(refused.check(request)).rejects.toThrow('no responders');
    await expect(refused.check(request)).rejects.toThrow('no responders');
    expect(failing.asked).toHaveLength(2);
  });
});
