// The one way the console's production server is started (`npm start`, the benchmarks, the
// end-to-end suites): `next start` with the memory settings below.
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { exitOnStartupError, StartupError } from "../lib/db/errors";

export const NEXT_BIN = path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
export const DEFAULT_HEAP_MIB = 384;
export const SEMI_SPACE_MIB = 16;
/** Blocks of 64 KiB and more are mapped apart and unmapped when freed (glibc's M_MMAP_THRESHOLD). */
export const MALLOC_MMAP_THRESHOLD = 64 * 1024;
/** Free memory above 256 KiB at the top of malloc's heap goes back to the system (M_TRIM_THRESHOLD). */
export const MALLOC_TRIM_THRESHOLD = 256 * 1024;
/**
 * V8's heap grows by this share after each full collection, not by the factor V8 picks itself,
 * up to 1.5 with the old generation at 384 MiB (asked of V8 with --trace-gc-verbose). Under the 20
 * users at 1.5 million domains the process peaked at 265, 277, 279 and 280 MiB with this and the
 * malloc thresholds above, 285 with the thresholds alone, 298 and 309 with neither. The price:
 * with both, the 20 users with no pause got 22.8-24.8 pages a second (24.9 with the thresholds
 * alone, 25.1 and 28.1 with neither), and one person's pages took their rendering 380-485 ms summed
 * over the 13 kinds against 362-383 (bench/RESULTS.md, 2026-12-03). Node refuses the option in
 * NODE_OPTIONS, so it is an argument of the server's own process, the same for every start.
 */
export const HEAP_GROWING_PERCENT = 20;
/** The V8 options the server's process is started with, before Next's own arguments. */
export const SERVER_NODE_ARGS = [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`];
type Environment = Record<string, string | undefined>;

/**
 * The server's environment. V8 lets the heap of a busy server grow far beyond what it keeps alive:
 * under 20 users the process held 387 MiB with no limit. A limit on the old generation
 * (CONSOLE_HEAP_MIB, 384 by default) makes it collect sooner: peak 213 MiB under the same load.
 * 256 did as well under that load but ran out of memory under minutes of overload (20 users with
 * no pause), before the server bounded what one kept-alive connection holds (lib/connections.ts);
 * 384 leaves room for that. The young generation is held at Node 20's size (16 MiB semi-spaces):
 * Node 24 grows it to 64 MiB ones, and under the same 20 users the process then peaked at 408 MiB
 * instead of 299, with every page as quick (bench/RESULTS.md, 2026-12-02). Two malloc arenas keep
 * threads from holding freed memory, and fixed malloc thresholds give it back: glibc otherwise
 * raises its mmap threshold after each large block freed, and then keeps later large blocks in its
 * heap (peak 309 and 298 MiB under the 20 users without them, 285 with; 2026-12-03). A NODE_OPTIONS
 * that sets its own --max-old-space-size or --max-semi-space-size wins, and so does an operator's
 * own MALLOC_*.
 */
export function serverEnvironment(env: Environment = process.env): Environment {
  const text = env.CONSOLE_HEAP_MIB?.trim() || String(DEFAULT_HEAP_MIB);
  const heap = Number(text);
  if (!Number.isSafeInteger(heap) || heap < 128)
    throw new StartupError(`CONSOLE_HEAP_MIB must be a whole number of MiB, at least 128 (default ${DEFAULT_HEAP_MIB}), not “${text}”`);
  const options = (env.NODE_OPTIONS ?? "").trim();
  const added = [
    options.includes("--max-old-space-size") ? null : `--max-old-space-size=${heap}`,
    options.includes("--max-semi-space-size") ? null : `--max-semi-space-size=${SEMI_SPACE_MIB}`,
  ].filter(Boolean);
  return {
    ...env,
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX || "2",
    MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ || String(MALLOC_MMAP_THRESHOLD),
    MALLOC_TRIM_THRESHOLD_: env.MALLOC_TRIM_THRESHOLD_ || String(MALLOC_TRIM_THRESHOLD),
    NODE_OPTIONS: [options, ...added].filter(Boolean).join(" "),
  };
}

/** `next start` with `args`, in its own process with the server's environment (from `options.env`). */
export function startNextServer(args: string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, [...SERVER_NODE_ARGS, NEXT_BIN, "start", ...args], {
    ...options,
    env: serverEnvironment(options.env ?? process.env) as NodeJS.ProcessEnv,
  });
}

/**
 * The address the server listens on: HOST, else 127.0.0.1 (this machine only; a reverse proxy in
 * front, or HOST=0.0.0.0 to be reached from other machines). An -H/--hostname given wins.
 */
export function hostArgs(args: string[], env: Environment = process.env): string[] {
  if (args.some((a) => a === "-H" || a === "--hostname" || a.startsWith("--hostname="))) return args;
  return ["-H", env.HOST?.trim() || "127.0.0.1", ...args];
}

/**
 * A line of the server's output as the person starting it reads it: Next's "Ready" comes when it
 * listens, before the console has prepared its database (minutes, on a first start with demo data),
 * so it is said as what it is; the console says itself when it serves pages.
 */
export function shownLine(line: string): string {
  return /^\s*✓ Ready in \d/.test(line)
    ? `${line.replace("Ready", "Listening")} — the console prepares its database first and says when it is ready`
    : line;
}

/** `npm start` and `npm run serve`: the server in the foreground; this process ends with it and passes it its signals. */
export function serveInForeground(args: string[]): void {
  let server: ChildProcess;
  try {
    server = startNextServer(hostArgs(args), { stdio: ["inherit", "pipe", "inherit"] });
  } catch (error) {
    exitOnStartupError(error);
  }
  createInterface({ input: server.stdout as NodeJS.ReadableStream }).on("line", (line) => process.stdout.write(`${shownLine(line)}\n`));
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
