// Runs the cluster's controllers and answers "is everything settled?" for tests that would
// otherwise sleep.
import type { Controller } from './context.ts';

export class ControllerManager {
  private readonly controllers: Controller[] = [];
  private readonly errors: unknown[] = [];

  add(controller: Controller): void {
    this.controllers.push(controller);
    controller.start();
  }

  /** Records a controller failure that retries did not clear; the next settle() reports it. */
  readonly reportError = (err: unknown, key: string): void => {
    this.errors.push(new Error(`kubefake controller failed on ${JSON.stringify(key)}: ${err instanceof Error ? err.message : String(err)}`, { cause: err }));
  };

  /**
   * Resolves once every controller is idle at the same moment (one controller's work can wake
   * another, so this loops until a full pass finds nothing to do). Rejects with the failures
   * controllers reported since the last call.
   */
  async settle(): Promise<void> {
    for (;;) {
      await Promise.all(this.controllers.map((c) => c.whenIdle()));
      // Work scheduled on a macrotask by the last pass shows up after a turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.controllers.every((c) => c.idle)) break;
    }
    if (this.errors.length) {
      const errors = this.errors.splice(0);
      throw errors.length === 1 ? errors[0] : new AggregateError(errors, 'kubefake controllers failed');
    }
  }

  stop(): void {
    for (const c of this.controllers) c.stop();
  }
}
