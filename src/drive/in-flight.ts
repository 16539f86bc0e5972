/**
 * Work that writes to disk or to the databases and must end before they close: an upload whose client went
 * away still finishes (or fails) while the app closes, not after it.
 */
export class InFlight {
  private readonly active = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    this.active.add(work);
    const done = () => this.active.delete(work);
    void work.then(done, done);
    return work;
  }

  /** Waits until nothing tracked is running, including work started while waiting. */
  async drain(): Promise<void> {
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
  }
}
