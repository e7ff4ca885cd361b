// A background loop: runs one pass every `intervalMs`, never two at once (a slow pass delays
// the next instead of overlapping it), and a failing pass is reported and retried next tick.
// stop() waits for the pass in progress, so a service shuts down with no write half done.

export interface PeriodicWorker {
  stop(): Promise<void>;
}

export function startPeriodic(
  intervalMs: number,
  pass: () => Promise<unknown>,
  onError: (error: unknown) => void,
): PeriodicWorker {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        await pass();
      } catch (error) {
        onError(error);
      }
    });
  }, intervalMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
