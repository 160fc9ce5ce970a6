import { formatTimestamp } from './timestamp';

describe('formatTimestamp', () => {
  it('should format in UTC with a colon-less offset', () => {
    expect(formatTimestamp(new Date('2026-03-04T05:06:07.890+08:00'))).toBe('2026-03-03T21:06:07+0000');
  });

  it('should answer null for a missing instant', () => {
    expect(formatTimestamp(null)).toBeNull();
  });
});
