import { subjectMatches } from './jetstream-publisher';

describe('subjectMatches', () => {
  it.each([
    ['gateway.>', 'gateway.profile.upsert.v1', true],
    ['gateway.*.upsert.v1', 'gateway.profile.upsert.v1', true],
    ['gateway.profile.upsert.v1', 'gateway.profile.upsert.v1', true],
    ['gateway.>', 'gateway', false],
    ['gateway.*', 'gateway.profile.upsert.v1', false],
    ['gateway.profile.upsert.v1', 'gateway.profile.upsert.v2', false],
    ['gateway.*.v1', 'gateway.>', false],
    ['gateway.>', 'gateway.*', true],
  ])('should answer whether %s covers %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });
});
