import { openContextDataSource } from '@app/database';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { hostConnectorDatabase } from '../../database';
import { StanRepository } from './stan.repository';

describe('StanRepository', () => {
  let database: TestDatabase;
  let replicaA: DataSource;
  let replicaB: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('stan');
    replicaA = await openContextDataSource(database.url, hostConnectorDatabase);
    replicaB = await openContextDataSource(database.url, hostConnectorDatabase);
  });

  afterAll(async () => {
    await replicaA.destroy();
    await replicaB.destroy();
    await database.drop();
  });

  it('should count one terminal from 000001 upwards', async () => {
    const stans = new StanRepository(replicaA);

    const taken = [await stans.next('ISO8583', 'h:1', 'T1'), await stans.next('ISO8583', 'h:1', 'T1'), await stans.next('ISO8583', 'h:1', 'T1')];

    expect(taken).toEqual(['000001', '000002', '000003']);
  });

  it('should keep a sequence per format, host and terminal', async () => {
    const stans = new StanRepository(replicaA);
    await stans.next('ISO8583', 'h:2', 'T1');

    const others = [await stans.next('ISO8583', 'h:2', 'T2'), await stans.next('S2M_8583', 'h:2', 'T1'), await stans.next('ISO8583', 'h:3', 'T1')];

    expect(others).toEqual(['000001', '000001', '000001']);
  });

  it('should wrap from 999999 to 000001, never giving 000000', async () => {
    const stans = new StanRepository(replicaA);
    await stans.next('ISO8583', 'h:wrap', 'T1');
    await replicaA.query(`UPDATE stan_counter SET last_stan = 999998 WHERE endpoint = 'h:wrap'`);

    const taken = [await stans.next('ISO8583', 'h:wrap', 'T1'), await stans.next('ISO8583', 'h:wrap', 'T1'), await stans.next('ISO8583', 'h:wrap', 'T1')];

    expect(taken).toEqual(['999999', '000001', '000002']);
  });

  it('should never give the same STAN twice to two replicas allocating at the same time', async () => {
    const a = new StanRepository(replicaA);
    const b = new StanRepository(replicaB);

    const taken = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? a : b).next('ISO8583', 'h:race', 'T1')));

    expect(new Set(taken).size).toBe(300);
    expect([...taken].sort()[299]).toBe('000300');
  });
});
