// `npm test`'s first-start check: the console started as a new user starts it, from a checkout with
// no build (.next removed) and an empty embedded database, several times in a row, while something
// polls its port from the first moment (as a load balancer or a browser would during the build).
// Every start must come up and answer /api/health with 200; a start that exits or hangs fails it.
// Then it restarts the last one three times with nothing changed. The times are printed, not
// asserted (a busy machine is slower, and that is not a failure).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const ROUNDS = Number(process.env.FIRST_START_ROUNDS ?? 3);
const RESTARTS = Number(process.env.RESTART_ROUNDS ?? 3);
const PORT = process.env.FIRST_START_PORT ?? "3190";
const LIMIT_MS = 240_000;

async function health(): Promise<number | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${PORT}/api/health`, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return null;
  }
}

/** Starts the console as `npm start` does on data directory `data`, until /api/health answers 200; returns the seconds it took. */
async function startOnce(label: string, data: string): Promise<string> {
  const started = Date.now();
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT,
      DATABASE_URL: "",
      PGLITE_DIR: path.join(data, "pglite"),
      DEMO_DOMAINS: "2000",
      CONSOLE_ADMIN_PASSWORD: "first start password 2026",
    },
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  let exited: number | null = null;
  child.on("exit", (code) => {
    exited = code ?? 1;
  });
  let polls = 0;
  let status: number | null = null;
  while (status !== 200 && exited === null && Date.now() - started < LIMIT_MS) {
    status = await health();
    polls++;
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  try {
    process.kill(-(child.pid as number), "SIGTERM");
  } catch {}
  await new Promise((resolve) => (exited === null ? child.once("exit", resolve) : resolve(null)));
  if (status !== 200) {
    console.error(output);
    console.error(
      exited !== null
        ? `${label}: the console exited (code ${exited}) after ${seconds} s without serving /api/health.`
        : `${label}: no 200 from /api/health within ${LIMIT_MS / 1000} s.`,
    );
    process.exit(1);
  }
  return `${seconds} s (${polls} polls)`;
}

let kept = "";
for (let round = 1; round <= ROUNDS; round++) {
  rmSync(".next", { recursive: true, force: true });
  const data = mkdtempSync(path.join(tmpdir(), "rsc-first-start-"));
  const took = await startOnce(`First start ${round} of ${ROUNDS}`, data);
  console.log(`First start ${round} of ${ROUNDS}: build, migration, demo data and /api/health 200 in ${took}.`);
  if (kept) rmSync(kept, { recursive: true, force: true });
  kept = data;
}
// Restarts with nothing changed: the build and the database as the last first start left them.
for (let round = 1; round <= RESTARTS; round++) {
  const took = await startOnce(`Restart ${round} of ${RESTARTS}`, kept);
  console.log(`Restart ${round} of ${RESTARTS} (nothing changed): /api/health 200 in ${took}.`);
}
rmSync(kept, { recursive: true, force: true });
