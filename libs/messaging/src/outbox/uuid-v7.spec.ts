import { uuidV7, uuidV7Floor } from './uuid-v7';

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

describe('uuidV7Floor', () => {
  it('should sort above every id of an earlier millisecond and at or below every id of its own', () => {
    // Later than any id made so far: uuidV7 never goes back in time within a process.
    const ms = Date.now() + 86_400_000;
    const floor = uuidV7Floor(ms);

    expect(floor).toBe(`${ms.toString(16).padStart(12, '0').slice(0, 8)}-${ms.toString(16).padStart(12, '0').slice(8)}-0000-0000-000000000000`);
    expect([uuidV7(ms - 1), floor, uuidV7(ms + 1)].sort()[1]).toBe(floor);
  });
});
