/**
 * A rule's deadline that can stop counting: time a rule spends waiting for a
 * mutable resource another rule holds is the schedule's doing, not the
 * rule's, and must not turn into a timeout that another order would not have.
 */
export class PausableDeadline {
  private timer: NodeJS.Timeout | undefined;
  private remaining: number;
  private since = performance.now();
  private pauses = 0;
  private done = false;

  constructor(
    ms: number,
    private readonly onExpire: () => void,
  ) {
    this.remaining = ms;
    this.arm();
  }

  pause(): void {
    if (this.done || this.pauses++ > 0) return;
    clearTimeout(this.timer);
    this.remaining -= performance.now() - this.since;
  }

  resume(): void {
    if (this.done || this.pauses === 0 || --this.pauses > 0) return;
    this.since = performance.now();
    this.arm();
  }

  clear(): void {
    this.done = true;
    clearTimeout(this.timer);
  }

  private arm(): void {
    this.timer = setTimeout(
      () => {
        this.done = true;
        this.onExpire();
      },
      Math.max(0, this.remaining),
    );
  }
}
