// What the offline walk-throughs (demo:board, demo:calls) share: numbered steps with their
// elapsed time, checks that stop the story with a message, polling, and the run itself: a
// deadline, a clean stop, and a non-zero exit that names the step that did not go as described.

export class DemoFailure extends Error {}

let currentStep = '0. Load the modules';
const started = Date.now();

export const say = (line = '') => process.stdout.write(`${line}\n`);

export function step(title: string) {
  currentStep = title;
  say();
  say(`── ${title}  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new DemoFailure(message);
}

/** Polls until `probe` returns a truthy value. */
export async function until<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new DemoFailure(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Plays `main`, then `stopStep` (which runs `stop`); exits 0, or 1 naming the failed step. */
export function runDemo(options: {
  main: () => Promise<void>;
  stop: () => Promise<void>;
  stopStep: string;
  stopped: string;
  deadlineMs: number;
}): void {
  const watchdog = setTimeout(() => {
    process.stderr.write(
      `\nDemo failed during step "${currentStep}": it took longer than ${options.deadlineMs / 1000} s.\n`,
    );
    process.exit(1);
  }, options.deadlineMs);
  options
    .main()
    .then(async () => {
      step(options.stopStep);
      await options.stop();
      clearTimeout(watchdog);
      say(`  ${options.stopped}; the walk-through took ${((Date.now() - started) / 1000).toFixed(1)} s.`);
      process.exit(0);
    })
    .catch(async (error: unknown) => {
      const message = error instanceof DemoFailure ? error.message : ((error as Error)?.stack ?? String(error));
      process.stderr.write(`\nDemo failed during step "${currentStep}":\n  ${message}\n`);
      await Promise.race([options.stop().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5_000))]);
      process.exit(1);
    });
}
