import { formatGatewayTimestamp } from './timestamps';

describe('formatGatewayTimestamp', () => {
  it('should show UTC with six fractional digits and a +00:00 offset', () => {
    expect(formatGatewayTimestamp(new Date('2025-01-31T08:15:30.123Z'))).toBe('2025-01-31T08:15:30.123000+00:00');
  });

  it('should show null as null', () => {
    expect(formatGatewayTimestamp(null)).toBeNull();
  });
});
