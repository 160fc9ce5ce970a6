import { DomainError } from '@app/common';
import { decodeProfileCursor, encodeProfileCursor } from './profile-cursor';

describe('profile cursors', () => {
  it('should decode what it encoded, to the millisecond', () => {
    const cursor = { createdAt: new Date('2025-01-31T08:15:30.123Z'), id: 'prof_abc-DEF_123' };

    expect(decodeProfileCursor(encodeProfileCursor(cursor))).toEqual(cursor);
  });

  it('should be opaque base64url', () => {
    expect(encodeProfileCursor({ createdAt: new Date(0), id: 'prof_x' })).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['not base64url', 'a+b/c='],
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['the wrong shape', Buffer.from(JSON.stringify({ createdAt: '2025-01-01T00:00:00.000Z', id: 'prof_x' })).toString('base64url')],
    ['a bad instant', Buffer.from(JSON.stringify(['yesterday', 'prof_x'])).toString('base64url')],
    ['a bad id', Buffer.from(JSON.stringify(['2025-01-01T00:00:00.000Z', 'x'])).toString('base64url')],
  ])('should refuse %s as a validation error naming the cursor', (_what, text) => {
    expect(() => decodeProfileCursor(text)).toThrow(DomainError);
    expect(() => decodeProfileCursor(text)).toThrow(/^cursor /);
  });
});
