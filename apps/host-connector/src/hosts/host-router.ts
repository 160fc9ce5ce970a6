import { HostOperation, HostProtocolError, HostRequestOf } from '@app/host-protocol';
import { Inject, Injectable } from '@nestjs/common';
import { HOST_PROTOCOLS, HostProtocols } from '../protocol/host-protocols';
import { ExchangeOptions, HostExchange, HostRoute } from './host-exchange';
import { IsoHostClient } from './iso-host.client';
import { JsonHostClient } from './json-host.client';
import { MockHost } from './mock-host';

/** Sends an operation over the transport of its route: in process (MOCK), TCP (ISO 8583) or HTTP (JSON). */
@Injectable()
export class HostRouter {
  constructor(
    @Inject(HOST_PROTOCOLS) private readonly protocols: HostProtocols,
    private readonly iso: IsoHostClient,
    private readonly json: JsonHostClient,
    private readonly mock: MockHost,
  ) {}

  async exchange<O extends HostOperation>(
    route: HostRoute,
    operation: O,
    request: HostRequestOf[O],
    deadlineAt: number,
    options: ExchangeOptions = {},
  ): Promise<HostExchange> {
    if (route.kind === 'mock') return this.mock.exchange(operation, request, deadlineAt, options);
    const { address } = route;
    let dialect;
    try {
      dialect = this.protocols.dialectFor(address.format);
    } catch (error) {
      if (error instanceof HostProtocolError) return { kind: 'unexpressible', reason: error.message };
      throw error;
    }
    if (dialect.kind === 'iso' && address.transport === 'tcp') return this.iso.exchange(address, dialect, operation, request, deadlineAt, options);
    if (dialect.kind === 'json' && address.transport === 'http') return this.json.exchange(address, dialect, operation, request, deadlineAt, options);
    return { kind: 'unexpressible', reason: `${address.format}: a ${dialect.kind} dialect cannot be spoken over ${address.transport}` };
  }
}
