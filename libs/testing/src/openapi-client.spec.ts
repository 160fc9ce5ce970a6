import { responseContract } from './openapi-client';

/**
 * The committed documents are read as OpenAPI 3.0.3 says (docs/decisions.md, "Nullable references
 * in the OpenAPI documents"): `nullable` widens only the `type` beside it, so a nullable reference
 * must be written so that null passes and a reference that is not nullable refuses it. The e2e
 * suites validate every typed call's answer with this contract.
 */
describe('ResponseContract: the committed documents, read strictly', () => {
  it('should take data null for the v1 device of an unknown id, and refuse what is neither a DeviceDto nor null', () => {
    const contract = responseContract('merchant-management');
    const answer = (data: unknown) => contract.problemsOf('GET', '/api/openapi/v1/device/{deviceId}', 200, 'application/json', { code: 0, msg: 'SUCCESS', data });
    expect(answer(null)).toEqual([]);
    expect(answer('none')).not.toEqual([]);
    expect(answer({})).not.toEqual([]);
  });

  it('should take a null reversal and a null approvedAmount, and refuse a null amount (not nullable)', () => {
    const contract = responseContract('payment-gateway');
    expect(contract.problemsAt('/components/schemas/TransactionActionDto/properties/reversal', null)).toEqual([]);
    expect(contract.problemsAt('/components/schemas/TransactionActionDto/properties/reversal', 'PENDING')).not.toEqual([]);
    expect(contract.problemsAt('/components/schemas/TransactionDto/properties/approvedAmount', null)).toEqual([]);
    expect(contract.problemsAt('/components/schemas/TransactionDto/properties/amount', null)).not.toEqual([]);
  });

  it('should take a null reconciliation of a legacy batch (a nullable enum)', () => {
    const contract = responseContract('transactions');
    expect(contract.problemsAt('/components/schemas/LegacyBatchDetailDto/properties/reconciliation', null)).toEqual([]);
    expect(contract.problemsAt('/components/schemas/LegacyBatchDetailDto/properties/reconciliation', 'SOMETHING')).not.toEqual([]);
  });

  it('should write no nullable beside allOf or $ref, nor a nullable enum without null, in any committed document (3.0.3 would not read them as null)', () => {
    for (const name of ['merchant-management', 'payment-gateway', 'transactions'] as const) {
      const found: string[] = [];
      const walk = (node: unknown, where: string): void => {
        if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${where}/${i}`));
        if (node === null || typeof node !== 'object') return;
        const schema = node as Record<string, unknown>;
        if (schema.nullable === true && (schema.allOf !== undefined || schema.$ref !== undefined)) found.push(where);
        if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) found.push(where);
        for (const [key, value] of Object.entries(schema)) walk(value, `${where}/${key}`);
      };
      walk(responseContract(name).document, name);
      expect(found).toEqual([]);
    }
  });
});
