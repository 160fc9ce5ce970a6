/** The current instant, injected so that expiry and window rules can be tested at a fixed time. */
export abstract class Clock {
  abstract now(): Date;
}

/** The system clock. */
export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock that stands still until moved (unit tests). */
export class FixedClock extends Clock {
  constructor(private instant: Date) {
    super();
  }

  now(): Date {
    return new Date(this.instant.getTime());
  }

  /** Moves the clock forward by `ms`. */
  advance(ms: number): void {
    this.instant = new Date(this.instant.getTime() + ms);
  }
}
