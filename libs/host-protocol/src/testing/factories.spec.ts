import fc from 'fast-check';
import { uniqueTid } from './factories';

describe('test factories', () => {
  it('should give terminal ids of exactly 8 characters, whatever the process id', () => {
    const pid = Object.getOwnPropertyDescriptor(process, 'pid')!;
    try {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 4_194_304 }), (value) => {
          Object.defineProperty(process, 'pid', { value, configurable: true });
          expect(uniqueTid()).toMatch(/^T\d{7}$/);
        }),
      );
    } finally {
      Object.defineProperty(process, 'pid', pid);
    }
  });
});
