import { Injectable } from '@nestjs/common';

/** Tells this process's delivery worker that a delivery was queued, so it need not wait for its next poll. */
@Injectable()
export class DeliverySignal {
  private readonly listeners = new Set<() => void>();

  notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** Answers a function that stops listening. */
  onQueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
