import { cardDataIn, dumpSchemas, startTestApp, TestApp, textsOf } from '@app/testing';
import { HostSandbox, hostSandboxSettingsFrom, StandaloneModule, startHostSandbox } from '../apps/standalone/src';
import { describeMoneyJourneys, JOURNEY_FORMATS, JOURNEY_PAN, TRANSACTIONS_PER_JOURNEY, trackDataInTablesOpened } from './money-journey';

/**
 * Money moves, the whole journey over HTTP as a PBO and a phone would take it, in standalone
 * (every context in one process, in-process messaging, the host connector speaking to the host
 * simulator over TCP). Then no full card number in any table of any schema. The same journeys
 * over NATS JetStream, with the logs and messages swept too: money-journey.nats.int-spec.ts.
 */
describe('money moves: from onboarding to a settled batch, over HTTP', () => {
  let hosts: HostSandbox;
  let app: TestApp;

  beforeAll(async () => {
    hosts = await startHostSandbox(hostSandboxSettingsFrom({ HOST_ECHO_INTERVAL_MS: '0', HOST_TIMEOUT_MS: '2000' }));
    app = await startTestApp((options) => StandaloneModule.register(options, hosts.config));
  });

  afterAll(async () => {
    await app?.close();
    await hosts?.close();
  });

  describeMoneyJourneys(() => app);

  it('should keep no full card number in any table of any schema after the journeys', async () => {
    const dumps = await dumpSchemas(app.database.url);
    // The sweep reads the journeys' rows (it cannot pass on empty tables).
    const rowsOf = (table: string) => dumps.find((dump) => `${dump.schema}.${dump.table}` === table)?.rows.length ?? 0;
    const transactions = TRANSACTIONS_PER_JOURNEY * JOURNEY_FORMATS.length;
    expect([rowsOf('payment_gateway.payment_transaction'), rowsOf('transactions.orders')]).toEqual([transactions, transactions]);
    expect(cardDataIn(textsOf(dumps), [JOURNEY_PAN])).toEqual([]);
  });

  it('should keep no track 2 (tag 57) in any table even with every sealed value opened with the data key (PCI DSS 3.3.1)', async () => {
    const { findings, keptCardOpened } = await trackDataInTablesOpened(app);
    // The sweep reads what the connector sealed for follow-ups (the authorisation captured, whose own row no settlement ends), not nothing.
    expect(keptCardOpened).toBe(true);
    expect(findings).toEqual([]);
  });
});
