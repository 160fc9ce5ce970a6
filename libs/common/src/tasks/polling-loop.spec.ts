import { Logger } from '@nestjs/common';
import { PollingLoop } from './polling-loop';

describe('PollingLoop', () => {
  const quiet = new Logger('test');

  it('should run an idle loop again at once when woken, not after its idle time', async () => {
    let ticks = 0;
    let worked = false;
    const loop = new PollingLoop(quiet, 60_000, () => {
      ticks += 1;
      const result = worked;
      worked = false;
      return Promise.resolve(result);
    });
    loop.start();
    await new Promise((resolve) => setImmediate(resolve));
    expect(ticks).toBe(1);

    loop.wake();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await loop.stop();

    expect(ticks).toBe(2);
  });

  it('should not lose a wake that comes while a tick runs', async () => {
    let ticks = 0;
    let loop: PollingLoop | undefined = undefined;
    loop = new PollingLoop(quiet, 60_000, () => {
      ticks += 1;
      // Work made in this process during the first tick, which itself found none.
      if (ticks === 1) loop?.wake();
      return Promise.resolve(false);
    });
    loop.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await loop.stop();

    expect(ticks).toBe(2);
  });
});
