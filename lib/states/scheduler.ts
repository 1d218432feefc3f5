import type { SqlReader } from "../db/driver";
import { metrics } from "../metrics";
import { type EngineRun, runPlanPass, runStateEngine } from "./engine";
import { fredEngineWrites } from "./fred-engine";
import { type FredPass, fredSchedulePass } from "./fred-schedule";
import { runShadow } from "./shadow";

export interface StateScheduler {
  /** Runs one tick now (unless one is running) and resolves with its result. */
  tick(): Promise<EngineRun | FredPass | null>;
  /** Resolves when the stored plan's pass that a tick started (if one runs) has ended. */
  planned(): Promise<void>;
  stop(): void;
}

/** A shadow comparison when the registry is in shadow mode and the newest run is `intervalMs` old (or there is none). */
async function shadowDue(db: SqlReader, intervalMs: number, at: Date | undefined, log: (line: string) => void): Promise<void> {
  const [due] = await db.query<{ due: boolean }>(
    `SELECT o.mode = 'shadow' AND NOT EXISTS (SELECT FROM console.shadow_runs r
              WHERE r.made_at > now() - make_interval(secs => $1::double precision / 1000)) AS due
       FROM console.registry_origin o WHERE o.origin = 'adopted'`,
    [intervalMs],
  );
  if (!due?.due) return;
  const run = await runShadow(db, { at });
  if (run) log(`shadow: ${run.differences.length} difference(s) from FRED's states, ${run.unexplained} unexplained (npm run db:shadow)`);
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
  /** In shadow mode, a shadow comparison (shadow.ts) when the newest run is this old (0: never). */
  shadowIntervalMs = 60 * 60_000,
): StateScheduler {
  let running: Promise<EngineRun | FredPass | null> | null = null;
  let planning: Promise<void> | null = null;
  const tick = () => {
    running ??= (async () => {
      const started = performance.now();
      // Counted and timed for the registry's monitoring (lib/metrics.ts).
      const counted = (kind: string) => {
        metrics().engineRuns.inc({ kind });
        metrics().engineSeconds.observe({ kind }, (performance.now() - started) / 1000);
      };
      try {
        const db = await database();
        if (await fredEngineWrites(db)) {
          const pass = await fredSchedulePass(db, { at: clock?.() });
          counted("fred");
          if (pass.objects + pass.feed > 0)
            log(`state scheduler: FRED's update_object_states for ${pass.objects} object(s), ${pass.feed} change(s) into the feed`);
          if (shadowIntervalMs > 0) await shadowDue(db, shadowIntervalMs, clock?.(), log);
          return pass;
        }
        const run = await runStateEngine(db, { at: clock?.() });
        counted(run.kind);
        if (run.opened + run.closed > 0) {
          log(
            `state engine: ${run.kind} run over ${run.objects} object(s), ${run.opened} state(s) opened, ${run.closed} closed in ${run.ms.toFixed(0)} ms`,
          );
        }
        // The forecast's stored plan, for the objects this run or the writes since the last one changed:
        // beside the ticks, not in them (written whole it takes minutes at 1.5 million domains, and the
        // engine's runs must not wait for it).
        planning ??= runPlanPass(db)
          .then((pass) => {
            if (pass.kind === "full")
              log(`state plan: written for ${pass.objects} object(s), ${pass.periods} period(s) in ${pass.ms.toFixed(0)} ms`);
          })
          .catch((error: Error) => log(`state plan: pass failed, the next tick retries: ${error.message}`))
          .finally(() => {
            planning = null;
          });
        return run;
      } catch (error) {
        counted("failed");
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
  return { tick, planned: () => planning ?? Promise.resolve(), stop: () => clearInterval(timer) };
}
