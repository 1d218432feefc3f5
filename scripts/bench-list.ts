// `npm run bench:list -- --domains N` against the PostgreSQL in DATABASE_URL (default 1,500,000
// domains, loaded with the demo generator and their state history when the database is empty).
// For each object-list query it times the data-access call a page makes (session check, catalogue,
// count, page) and, separately, the bare SQL it sends for the data (count and page), and prints
// p50/p95 of both. Figures go into bench/RESULTS.md.
import type { Database } from "../lib/db/client";
import type { DirectDriver, SqlDriver, SqlExecutor } from "../lib/db/driver";
import { exitOnStartupError } from "../lib/db/errors";
import { exportObjects } from "../lib/objects/export";
import { listObjects } from "../lib/objects/list";
import { actAs, signedInAs } from "../testing/sessions";
import { endedBlockInstant, instantAhead, machineLine, ms, openBenchRegistry, percentile, timed, writeResults } from "./bench-registry";

const REPEATS = 20;
const WARMUP = 3;
/** The forecast lists take seconds each at 1.5 million domains: fewer runs of them (said in their rows). */
const SLOW_REPEATS = 5;
const SLOW_WARMUP = 1;

interface Recorded {
  sql: string;
  params: unknown[];
  /** Sent inside a transaction (the count, under its statement timeout): replayed in one too. */
  group?: Recorded[];
}

const isDataQuery = (text: string) => /(console\.object_key|object_registry) o\b/.test(text);

function recordingExecutor<X extends SqlExecutor>(target: X, log: Recorded[], all = false): X {
  return {
    ...target,
    query: (text: string, params: unknown[] = []) => {
      // The audit row a change appends is not replayed: it names the id it takes in the chain.
      if ((all && !/console\.audit_/.test(text)) || isDataQuery(text)) log.push({ sql: text, params });
      return target.query(text, params);
    },
  };
}

/** A driver that notes what it sends; a transaction's statements are noted as one group. */
function recordingDriver<D extends SqlExecutor & { transaction: SqlDriver["transaction"] | DirectDriver["transaction"] }>(
  driver: D,
  log: Recorded[],
): D {
  return {
    ...recordingExecutor(driver, log),
    transaction: (work: (tx: never) => Promise<unknown>) => {
      const group: Recorded[] = [];
      log.push({ sql: "", params: [], group });
      return (driver.transaction as (w: (tx: SqlExecutor) => Promise<unknown>) => Promise<unknown>)((tx) =>
        work(recordingExecutor(tx, group, true) as never),
      );
    },
  } as D;
}

/** The same database, noting every query that reads object_registry (the list's data queries), through Prisma or not. */
function recording(db: Database, log: Recorded[]): Database {
  return { ...db, sql: recordingDriver(db.sql, log), direct: recordingDriver(db.direct, log) };
}

/** Runs recorded queries again, one after another, on the direct connection (not through Prisma). */
async function replay(db: Database, queries: Recorded[]): Promise<void> {
  for (const q of queries) {
    if (!q.group) await db.direct.query(q.sql, q.params);
    else {
      const group = q.group;
      await db.direct
        .transaction(async (tx) => {
          for (const g of group) await tx.query(g.sql, g.params);
        })
        .catch((error: { code?: string }) => {
          if (error.code !== "57014") throw error;
        });
    }
  }
}

try {
  const { db, domains } = await openBenchRegistry("bench:list", 1_500_000, new Date());
  try {
    const [{ rows: stateRows }] = await db.sql.query<{ rows: number }>("SELECT count(*)::int AS rows FROM object_state");
    if (stateRows === 0) throw new Error("the registry has no state history: load it with bench:list into an empty database");
    await db.direct.exec("ANALYZE");
    const support = await signedInAs(db, "support", `bench-${Date.now()}`);
    const log: Recorded[] = [];
    const context = { ...support, db: recording(db, log) };

    // Inputs picked from the data so each query has work to do.
    const [{ word }] = await db.sql.query<{ word: string }>(
      "SELECT substr(name, 2, 4) AS word FROM object_registry WHERE type = 3 ORDER BY id LIMIT 1 OFFSET 1000",
    );
    const [{ since }] = await db.sql.query<{ since: Date }>(
      "SELECT crdate AS since FROM object_registry WHERE type = 3 AND erdate IS NULL ORDER BY crdate DESC, id DESC OFFSET 99999 LIMIT 1",
    );
    const at = await endedBlockInstant(db.sql);
    const ahead = instantAhead;
    const scenarios: { label: string; params: Record<string, string>; slow?: boolean }[] = [
      { label: "first page, no filter", params: {} },
      { label: "“has outzone now”, first page", params: { type: "domain", states: "outzone" } },
      { label: "“has outzone now”, last page", params: { type: "domain", states: "outzone", last: "1" } },
      { label: `“had serverBlocked at ${at}”`, params: { states: "serverBlocked", mode: "at", at } },
      // The lists that say when (issue 41, item 5): a window ahead, an instant ahead, and sorted by when.
      {
        label: "“entered outzone” in the coming week (forecast)",
        params: { type: "domain", states: "outzone", mode: "entered", from: ahead(0), to: ahead(7) },
        slow: true,
      },
      {
        label: "the same, sorted by when they enter",
        params: { type: "domain", states: "outzone", mode: "entered", from: ahead(0), to: ahead(7), sort: "from" },
        slow: true,
      },
      {
        label: "“had deleteCandidate” in 30 days (forecast)",
        params: { states: "deleteCandidate", mode: "at", at: ahead(30) },
        slow: true,
      },
      {
        label: `“had serverBlocked at ${at}”, sorted by when it ended`,
        params: { states: "serverBlocked", mode: "at", at, sort: "until" },
      },
      { label: `name contains “${word}”`, params: { q: word, match: "contains" } },
      { label: "domains by expiration, last page", params: { type: "domain", sort: "expires", last: "1" } },
    ];

    const lines: string[] = [];
    const say = (line: string) => {
      console.log(line);
      lines.push(line);
    };
    const pgVersion = (await db.sql.query<{ v: string }>("SELECT current_setting('server_version') AS v"))[0].v;
    const objects = (await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM object_registry"))[0].n;
    say(`## Object list (\`npm run bench:list -- --domains ${domains}\`), ${new Date().toISOString().slice(0, 16)}Z`);
    say("");
    say(machineLine(pgVersion));
    say(
      `Data: ${objects.toLocaleString("en")} objects (${domains.toLocaleString("en")} domains), ${stateRows.toLocaleString("en")} state history rows.`,
    );
    say(`Each query ${REPEATS} times after ${WARMUP} warm-up runs; times in ms.`);
    say("");
    say(
      "| query | rows | total shown | server p50 | server p95 | server max | bare SQL p50 | bare SQL p95 | bare SQL max | server / bare (p50) |",
    );
    say("|---|---|---|---|---|---|---|---|---|---|");
    const figures = (server: number[], bare: number[]) =>
      `${ms(percentile(server, 50))} | ${ms(percentile(server, 95))} | ${ms(Math.max(...server))} | ${ms(percentile(bare, 50))} | ${ms(percentile(bare, 95))} | ${ms(Math.max(...bare))} | ${(percentile(server, 50) / percentile(bare, 50)).toFixed(2)}`;

    for (const scenario of scenarios) {
      const server: number[] = [];
      const bare: number[] = [];
      let shown = "";
      let rows = 0;
      const [warmup, repeats] = scenario.slow ? [SLOW_WARMUP, SLOW_REPEATS] : [WARMUP, REPEATS];
      for (let i = 0; i < warmup + repeats; i++) {
        log.length = 0;
        const [page, serverMs] = await timed(() => actAs(context, () => listObjects(scenario.params)));
        const queries = [...log];
        // The same data queries, one after another, straight on the database.
        const [, bareMs] = await timed(() => replay(db, queries));
        if (i < warmup) continue;
        server.push(serverMs);
        bare.push(bareMs);
        shown = page.atLeast && page.total === 0 ? "many" : `${page.atLeast ? ">" : ""}${page.total.toLocaleString("en")}`;
        rows = page.rows.length;
      }
      say(`| ${scenario.label}${scenario.slow ? ` (${repeats} runs)` : ""} | ${rows} | ${shown} | ${figures(server, bare)} |`);
    }

    // The CSV export of about 100,000 rows: the newest domains.
    const exportParams = { type: "domain", created_from: since.toISOString() };
    const exportServer: number[] = [];
    const exportBare: number[] = [];
    let exported = 0;
    for (let i = 0; i < 1 + 5; i++) {
      log.length = 0;
      const [bytes, serverMs] = await timed(async () => {
        const result = await actAs(context, () => exportObjects(exportParams));
        let size = 0;
        for await (const chunk of result.chunks) size += chunk.length;
        return size;
      });
      const queries = [...log];
      const [, bareMs] = await timed(() => replay(db, queries));
      if (i === 0) continue;
      exportServer.push(serverMs);
      exportBare.push(bareMs);
      exported = bytes;
    }
    const [{ exportRows }] = await db.sql.query<{ exportRows: number }>(
      `SELECT count(*)::int AS "exportRows" FROM object_registry WHERE type = 3 AND erdate IS NULL AND crdate >= $1`,
      [since],
    );
    say(
      `| CSV export, ${exportRows.toLocaleString("en")} domains (${(exported / 2 ** 20).toFixed(1)} MiB), 5 runs | ${exportRows} | | ${figures(exportServer, exportBare)} |`,
    );
    say("");
    say(
      "Server: the data-access call a page request makes (session check, catalogue, count or estimate, exact-name lookup, page; count and page run in parallel). " +
        "Bare SQL: the data queries it sent (count under its 25 ms budget, estimate, page), run again one after another on the pg driver directly, without Prisma. Targets: p95 under 100 ms for every page query, server within 2× of bare SQL.",
    );
    writeResults("## Object list", lines);
  } finally {
    await db.close();
  }
} catch (error) {
  exitOnStartupError(error, "bench:list failed");
}
