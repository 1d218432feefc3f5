import type { SqlExecutor } from "../db/driver";
import { type EngineRun, runStateEngine } from "./engine";

export interface StateScheduler {
  /** Runs one tick now (unless one is running) and resolves with its result. */
  tick(): Promise<EngineRun | null>;
  stop(): void;
}

/**
 * Runs the state engine every `intervalMs` inside the console process. Ticks never overlap in
 * one process, and the engine's own lock keeps several processes from running it at once: a
 * process that finds it busy simply waits for its next tick.
 */
export function startStateScheduler(
  database: () => Promise<SqlExecutor>,
  intervalMs: number,
  log: (line: string) => void = console.log,
  /** The instant each tick brings history up to; the database's now() when left out (tests inject one). */
  clock?: () => Date,
): StateScheduler {
  let running: Promise<EngineRun | null> | null = null;
  const tick = () => {
    running ??= (async () => {
      try {
        const run = await runStateEngine(await database(), { at: clock?.() });
        if (run.opened + run.closed > 0) {
          log(
            `state engine: ${run.kind} run over ${run.objects} object(s), ${run.opened} state(s) opened, ${run.closed} closed in ${run.ms.toFixed(0)} ms`,
          );
        }
        return run;
      } catch (error) {
        log(`state engine: run failed, the next tick retries: ${(error as Error).message}`);
        return null;
      } finally {
        running = null;
      }
    })();
    return running;
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return { tick, stop: () => clearInterval(timer) };
}
