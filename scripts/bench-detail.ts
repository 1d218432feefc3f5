// `npm run bench:detail -- --domains N` against the PostgreSQL in DATABASE_URL (default 1,500,000
// domains, loaded with the demo generator when the database is empty): times the object page's
// data-access call for a domain with 500 state history rows (given them by past requests on first
// use: past requests and the history they made) and for a typical domain, and prints p50/p95; then
// starts the production build (`npm run build` first) on the same database and times the whole
// page, signed in over HTTP. Figures go into bench/RESULTS.md.
import { randomBytes } from "node:crypto";
import { exitOnStartupError } from "../lib/db/errors";
import { objectDetail } from "../lib/objects/detail";
import { insertUser } from "../lib/users/store";
import { actAs, signedInAs } from "../testing/sessions";
import {
  BASE,
  machineLine,
  ms,
  openBenchRegistry,
  percentile,
  richDomain,
  signInOverHttp,
  startServer,
  timed,
  writeResults,
} from "./bench-registry";

const REPEATS = 30;
const WARMUP = 3;

try {
  const { db, domains } = await openBenchRegistry("bench:detail", 1_500_000, new Date());
  try {
    const { id, name, rows } = await richDomain(db);
    const [typical] = await db.sql.query<{ id: number; n: number }>(
      // The first domain with some history after the middle of the id range.
      `SELECT d.id, (SELECT count(*)::int FROM object_state os WHERE os.object_id = d.id) AS n
         FROM (SELECT os.object_id AS id FROM object_state os JOIN domain dm ON dm.id = os.object_id
                WHERE os.object_id >= (SELECT (min(id) + max(id)) / 2 FROM domain) ORDER BY os.object_id LIMIT 1) d`,
    );
    const support = await signedInAs(db, "support", `bench-${Date.now()}`);

    const lines: string[] = [];
    const say = (line: string) => {
      console.log(line);
      lines.push(line);
    };
    const pgVersion = (await db.sql.query<{ v: string }>("SELECT current_setting('server_version') AS v"))[0].v;
    say(`## Object page (\`npm run bench:detail -- --domains ${domains}\`), ${new Date().toISOString().slice(0, 16)}Z`);
    say("");
    say(machineLine(pgVersion));
    say(`Each object ${REPEATS} times after ${WARMUP} warm-up runs; times in ms of the page's data-access call (objectDetail).`);
    say("");
    say("| object | history rows | requests | p50 | p95 | max |");
    say("|---|---|---|---|---|---|");
    for (const [label, objectId, historyCount] of [
      [`${name} (rich history)`, id, rows],
      ["a typical domain", typical.id, typical.n],
    ] as const) {
      const times: number[] = [];
      let requests = 0;
      for (let i = 0; i < WARMUP + REPEATS; i++) {
        const [detail, ms] = await timed(() => actAs(support, () => objectDetail(objectId)));
        if (!detail) throw new Error(`object ${objectId} vanished`);
        requests = detail.requests.length;
        if (i >= WARMUP) times.push(ms);
      }
      say(
        `| ${label} | ${historyCount} | ${requests} | ${ms(percentile(times, 50))} | ${ms(percentile(times, 95))} | ${ms(Math.max(...times))} |`,
      );
    }

    // The whole page: data, rendering and HTML, as a browser asks for it.
    const password = randomBytes(12).toString("base64url");
    const username = `bench-page-${Date.now()}`;
    await insertUser(db.sql, { username, role: "support", password });
    const server = await startServer(process.env.DATABASE_URL as string);
    try {
      const cookie = await signInOverHttp(username, password);
      say("");
      say("| whole page (HTTP, production build) | history rows | HTML | p50 | p95 | max |");
      say("|---|---|---|---|---|---|");
      for (const [label, objectId, historyCount] of [
        [name, id, rows],
        ["a typical domain", typical.id, typical.n],
      ] as const) {
        const times: number[] = [];
        let bytes = 0;
        for (let i = 0; i < WARMUP + REPEATS; i++) {
          const [response, ms] = await timed(async () => {
            const answer = await fetch(`${BASE}/objects/${objectId}`, { headers: { cookie } });
            return { status: answer.status, body: await answer.text() };
          });
          if (response.status !== 200) throw new Error(`/objects/${objectId} answered ${response.status}`);
          bytes = response.body.length;
          if (i >= WARMUP) times.push(ms);
        }
        say(
          `| ${label} | ${historyCount} | ${(bytes / 1024).toFixed(0)} KiB | ${ms(percentile(times, 50))} | ${ms(percentile(times, 95))} | ${ms(Math.max(...times))} |`,
        );
      }
    } finally {
      server.kill();
    }
    say("");
    say("Target: under 300 ms server time for an object with 500 history rows.");
    writeResults("## Object page", lines);
  } finally {
    await db.close();
  }
} catch (error) {
  exitOnStartupError(error, "bench:detail failed");
}
