import type { ConsoleConfig } from "../config";
import type { SqlExecutor } from "../db/driver";
import { type AnchorAdvance, advanceAuditAnchor } from "./anchor";
import type { AuditKeyRing } from "./keys";

/** How often the running console moves the anchor, whatever was appended (and reports a rewritten log again). */
const INTERVAL_MS = 60_000;
/** After an append, how long the console waits for more (and for the append's transaction to commit) before anchoring. */
const AFTER_APPEND_MS = 1_000;

const HOOK = Symbol.for("registry-state-console.audit-appended");
type HookSlot = typeof globalThis & { [HOOK]?: () => void };

/** Called by audit() after each row it appends: the running console anchors it shortly after. */
export function auditAppended(): void {
  (globalThis as HookSlot)[HOOK]?.();
}

export interface AuditAnchoring {
  /** Moves the anchor now (unless a move is under way) and resolves with what happened. */
  tick(): Promise<AnchorAdvance | null>;
  /** The first move, made at once (logged as every minute's is). */
  first: Promise<void>;
  /** Stops the timers and the moves after appends. */
  stop(): void;
}

/**
 * Keeps the audit log's anchor (lib/audit/anchor.ts) at the log's newest row while the console
 * runs: a second after appends, and every minute. A new anchor is logged (at most once a minute),
 * so the log carries it too; an anchored row that is gone or changed is logged as an error (once
 * a minute while it lasts), and the anchor is left as it is.
 */
export function startAuditAnchoring(
  database: () => Promise<SqlExecutor>,
  ring: AuditKeyRing,
  config: Pick<ConsoleConfig, "auditAnchorFile" | "databaseUrl" | "pgliteDir">,
  log: { info: (line: string) => void; error: (line: string) => void } = console,
): AuditAnchoring {
  let running: Promise<AnchorAdvance | null> | null = null;
  let soon: NodeJS.Timeout | null = null;
  let unlogged: AnchorAdvance["anchor"] | null = null;
  let lastError = { line: "", at: 0 };
  const tick = () => {
    running ??= (async () => {
      try {
        const advance = await advanceAuditAnchor(await database(), ring, config);
        if (advance.outcome === "written") unlogged = advance.anchor;
        if (advance.outcome === "refused") {
          // Said at once, then once a minute while it lasts (not at every append).
          const line = `audit log: ${advance.problem}. Run npm run audit:verify.`;
          if (line !== lastError.line || Date.now() - lastError.at >= INTERVAL_MS) {
            log.error(line);
            lastError = { line, at: Date.now() };
          }
        }
        return advance;
      } catch (error) {
        log.error(`audit log: the anchor could not be moved, the next minute retries: ${(error as Error).message}`);
        return null;
      } finally {
        running = null;
      }
    })();
    return running;
  };
  const minute = async () => {
    await tick();
    if (unlogged) {
      const { id, mac, writtenAt } = unlogged;
      log.info(
        `audit anchor: row ${id} at ${writtenAt}${mac ? `; check later with npm run audit:verify -- --anchor ${id}:${mac.slice(0, 32)}` : ""}`,
      );
      unlogged = null;
    }
  };
  const timer = setInterval(minute, INTERVAL_MS);
  timer.unref();
  (globalThis as HookSlot)[HOOK] = () => {
    soon ??= setTimeout(() => {
      soon = null;
      void tick();
    }, AFTER_APPEND_MS);
    soon.unref();
  };
  const first = minute();
  return {
    tick,
    first,
    stop: () => {
      clearInterval(timer);
      if (soon) clearTimeout(soon);
      delete (globalThis as HookSlot)[HOOK];
    },
  };
}
