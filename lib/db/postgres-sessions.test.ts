// The console's sessions on a PostgreSQL server (lib/db/client.ts): a console that is gone leaves
// nothing running there (client_connection_check_interval; PostgreSQL otherwise runs a statement
// whose client has gone to its end, and a process killed mid-statement sends it nothing), one hung
// inside a transaction holds FRED's rows a minute at most (idle_in_transaction_session_timeout),
// and its sessions say whose they are (application_name). PostgreSQL only: the embedded database
// lives and dies with the console's own process.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const adminUrl = process.env.TEST_DATABASE_URL;

/** A process that opens a connection as `opener` says and starts a ten-minute statement marked `marker` on it. */
function sleeper(opener: "console" | "plain", marker: string): ChildProcess {
  const connect =
    opener === "console"
      ? `const { openDatabase } = await import("./lib/db/client.ts");
         const db = await openDatabase({ databaseUrl: process.env.URL, pgliteDir: "" });
         await db.direct.query("SELECT pg_sleep(600) -- ${marker}");`
      : `const pg = (await import("pg")).default;
         const client = new pg.Client(process.env.URL);
         await client.connect();
         await client.query("SELECT pg_sleep(600) -- ${marker}");`;
  return spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", connect], {
    env: { ...process.env, URL: adminUrl },
    stdio: "ignore",
  });
}

describe.skipIf(!adminUrl)("statements of a console that is gone (PostgreSQL)", () => {
  const watcher = new pg.Client(adminUrl);
  const running = async (marker: string): Promise<number | null> =>
    (
      await watcher.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()",
        [`%-- ${marker}`],
      )
    ).rows[0]?.pid ?? null;
  /** Waits for events, not for a speed: the limits are generous. */
  const POLL = { interval: 200 };
  const left: number[] = [];
  const children: ChildProcess[] = [];

  beforeAll(() => watcher.connect());
  afterAll(async () => {
    // A test that failed before its kills leaves neither process nor statement behind.
    for (const child of children) child.kill("SIGKILL");
    for (const pid of left) await watcher.query("SELECT pg_terminate_backend($1)", [pid]);
    await watcher.end();
  });

  it("ends the statement of a killed console within seconds; a plain connection's runs on", async () => {
    const consoleMarker = `rsc-orphan-console-${randomUUID()}`;
    const plainMarker = `rsc-orphan-plain-${randomUUID()}`;
    const consoleProcess = sleeper("console", consoleMarker);
    const plainProcess = sleeper("plain", plainMarker);
    children.push(consoleProcess, plainProcess);
    // Both statements are running (starting a process with tsx takes seconds on a busy machine).
    const [consolePid, plainPid] = await vi.waitFor(
      async () => {
        const pids = [await running(consoleMarker), await running(plainMarker)];
        expect(pids).not.toContain(null);
        return pids as number[];
      },
      { ...POLL, timeout: 120_000 },
    );
    left.push(consolePid, plainPid);

    // Killed as the kernel kills: no cancel request, no goodbye to PostgreSQL.
    consoleProcess.kill("SIGKILL");
    plainProcess.kill("SIGKILL");

    // The console's connection asked the server to look each second: its statement ends.
    await vi.waitFor(async () => expect(await running(consoleMarker)).toBeNull(), { ...POLL, timeout: 60_000 });
    // Without it (a connection as FRED's programs or psql open it) the statement is still running
    // after the console's has ended: what the console's connections did before.
    expect(await running(plainMarker)).toBe(plainPid);
  });

  it("asks for the check and an end to idle transactions on every connection of the console, and names its sessions", async () => {
    const { openDatabase, CONNECTION_CHECK_MS, IDLE_IN_TRANSACTION_MS, APPLICATION_NAME } = await import("./client");
    const settings = `SELECT current_setting('client_connection_check_interval') AS ms, current_setting('application_name') AS name,
                             current_setting('idle_in_transaction_session_timeout') AS idle`;
    const expected = (name: string) => [{ ms: `${CONNECTION_CHECK_MS / 1000}s`, name, idle: `${IDLE_IN_TRANSACTION_MS / 60_000}min` }];
    const db = await openDatabase({ databaseUrl: adminUrl, pgliteDir: "" });
    try {
      expect(await db.direct.query(settings)).toEqual(expected(APPLICATION_NAME));
      // Through Prisma too: the same pool.
      expect(await db.prisma.$queryRawUnsafe(settings)).toEqual(expected(APPLICATION_NAME));
    } finally {
      await db.close();
    }
    // A name the operator gives in the URL wins.
    const url = new URL(adminUrl as string);
    url.searchParams.set("application_name", "console-b");
    const named = await openDatabase({ databaseUrl: url.toString(), pgliteDir: "" });
    try {
      expect(await named.direct.query(settings)).toEqual(expected("console-b"));
    } finally {
      await named.close();
    }
  });
});
