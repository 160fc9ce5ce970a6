import { uuidV7 } from './uuid-v7';

describe('uuidV7', () => {
  it('should produce version 7, variant 10 UUIDs', () => {
    expect(uuidV7()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('should keep increasing within one millisecond and when the clock steps back', () => {
    const now = Date.now() + 60_000;
    const ids = [uuidV7(now), uuidV7(now), uuidV7(now), uuidV7(now - 5000), uuidV7(now + 1)];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
