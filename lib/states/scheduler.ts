import type { SqlReader } from "../db/driver";
import { type EngineRun, runStateEngine } from "./engine";
import { fredEngineWrites } from "./fred-engine";
import { type FredPass, fredSchedulePass } from "./fred-schedule";

export interface StateScheduler {
  /** Runs one tick now (unless one is running) and resolves with its result. */
  tick(): Promise<EngineRun | FredPass | null>;
  stop(): void;
}

/**
 * Runs the state engine every `intervalMs` inside the console process. Ticks never overlap in
 * one process, and the engine's own lock keeps several processes from running it at once: a
 * process that finds it busy simply waits for its next tick. When FRED's engine writes the states
 * (beside, shadow), a tick is a pass of FRED's instead (fred-schedule.ts): the requests due handed
 * to FRED's update_object_states, and the change feed read from object_state.
 */
export function startStateScheduler(
  database: () => Promise<SqlReader>,
  intervalMs: number,
  log: (line: string) => void = console.log,
  /** The instant each tick brings history up to; the database's now() when left out (tests inject one). */
  clock?: () => Date,
): StateScheduler {
  let running: Promise<EngineRun | FredPass | null> | null = null;
  const tick = () => {
    running ??= (async () => {
      try {
        const db = await database();
        if (await fredEngineWrites(db)) {
          const pass = await fredSchedulePass(db, { at: clock?.() });
          if (pass.objects + pass.feed > 0)
            log(`state scheduler: FRED's update_object_states for ${pass.objects} object(s), ${pass.feed} change(s) into the feed`);
          return pass;
        }
        const run = await runStateEngine(db, { at: clock?.() });
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
