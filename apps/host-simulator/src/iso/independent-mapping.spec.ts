import { DEVELOPMENT_ZMK } from '@app/host-protocol';
import { authorizeRequest, wireContext } from '@app/host-protocol/testing/factories';
import { ISO8583, Iso8583Message, unpack } from '@app/iso8583';

/** The connector's ISO field table, which a mapping error would be made in. */
const CONNECTOR_FIELDS = '../../../../libs/host-protocol/src/iso/iso-fields';
type ConnectorFields = typeof import('../../../../libs/host-protocol/src/iso/iso-fields');

/**
 * Builds a sale with the connector's ISO dialect (its field table changed by `mistake`, when
 * given) and lets the simulator answer it from the bytes. Both are loaded afresh in one module
 * registry, so a simulator that took its mapping from the dialect's table would see the same
 * change and agree with it.
 */
function simulatorAnswerToSale(mistake?: (actual: ConnectorFields) => Partial<ConnectorFields>): Iso8583Message | null {
  let answer: Iso8583Message | null = null;
  jest.isolateModules(() => {
    if (mistake) {
      jest.doMock(CONNECTOR_FIELDS, () => {
        const actual = jest.requireActual<ConnectorFields>(CONNECTOR_FIELDS);
        return { ...actual, ...mistake(actual) };
      });
    }
    const { IsoHostDialect } = jest.requireActual<typeof import('@app/host-protocol')>('@app/host-protocol');
    const { answerIsoRequest } = jest.requireActual<typeof import('./iso-host')>('./iso-host');
    const { AcquirerEngine } = jest.requireActual<typeof import('../engine/acquirer-engine')>('../engine/acquirer-engine');
    const { emptyStats } = jest.requireActual<typeof import('../engine/simulator-stats')>('../engine/simulator-stats');

    const { payload } = new IsoHostDialect('ISO8583', ISO8583).packRequest('authorize', authorizeRequest({ minor: '1500' }), wireContext());
    const stats = emptyStats();
    answer = answerIsoRequest(unpack(ISO8583, payload), {
      spec: ISO8583,
      engine: new AcquirerEngine(stats),
      stats,
      zmk: DEVELOPMENT_ZMK,
      issuedKeys: new Map(),
      cardAcceptors: new Map(),
    });
  });
  jest.dontMock(CONNECTOR_FIELDS);
  return answer;
}

/**
 * The simulator maps the financial fields with code of its own (iso-fields.ts beside this file),
 * so connector and simulator check each other: a mapping error in the connector's dialect is
 * refused by the simulator instead of being understood by the same mistake.
 */
describe('simulator and connector map ISO fields independently', () => {
  it('should approve a sale built by the connector as it is', () => {
    expect(simulatorAnswerToSale()?.fields[39]).toBe('00');
  });

  it('should refuse a sale whose processing code the dialect maps wrongly, rather than agree with the mistake', () => {
    // The mistake: purchases sent as 01 (cash) instead of 00 (goods and services).
    const answer = simulatorAnswerToSale((actual) => ({
      PROCESSING_CODE: { ...actual.PROCESSING_CODE, PURCHASE: '010000' } as unknown as ConnectorFields['PROCESSING_CODE'],
      processingCodeOf: (operation) => (operation === 'authorize' ? '010000' : actual.processingCodeOf(operation)),
    }));

    expect(answer?.fields[3]).toBe('010000');
    expect(answer?.fields[39]).toBe('12');
  });
});
