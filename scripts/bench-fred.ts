// `npm run bench:fred -- [--domains 1500000] [--seconds 20] [--rounds 3] [--seed S]` against the
// PostgreSQL server in DATABASE_URL: FRED's own writes and state calls, as FRED's servers issue them
// (Debian's pgbench, role fred, 1 and 8 clients), on an adopted FRED registry and on an un-adopted
// copy of it with the same data; per operation per second, p50, p95 and failures without and with
// the console, and FRED's regular procedure. Writes its section of bench/RESULTS.md.
//
// The database DATABASE_URL names is the adopted registry: when it does not exist it is created as
// fred-db's README says (lib/testing/fred.ts, owner fred), loaded with the demo generator and
// adopted (as `npm run db:seed -- --domains N` does). `<name>_without` is its copy with the console
// removed (`npm run db:unadopt -- --yes`). Both are kept for the next run, which reuses them when
// they hold N domains.
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkDatabase } from "../lib/check";
import { readConfig } from "../lib/config";
import { unadopt } from "../lib/db/adopt";
import { openDatabase } from "../lib/db/client";
import { exitOnStartupError, StartupError } from "../lib/db/errors";
import { runStateEngine } from "../lib/states/engine";
import { createFredDatabase, databaseUrl, fredRoleUrl, postgresProgram, withClient } from "../lib/testing/fred";
import { benchOptions, count, loadBenchRegistry, machineLine, ms, percentile, timed, writeResults } from "./bench-registry";

/** The bench's requests: for a manual state valid for domains that no request of the registry's
 * holds in the far future, each in a far-future minute of its own (so that two never overlap and
 * none is ever in force); deleted after the run. */
const REQUEST_EPOCH = "2200-01-01";
const REQUEST_SLOTS = 10_000_000;

// One pgbench script per operation. Each SQL line without BEGIN is its own transaction, as FRED's
// servers commit each EPP command; `:name` variables are the id ranges passed with -D.
const operations = (requestState: number, requestStateName: string): { key: string; title: string; script: string }[] => [
  {
    key: "renew",
    title: "EPP domain renew",
    script: `\\set id random(:dlo, :dhi)
UPDATE domain SET exdate = exdate + 365 WHERE id = :id;
`,
  },
  {
    key: "nsset",
    title: "domain update: nsset changed (10 % to none)",
    script: `\\set id random(:dlo, :dhi)
\\set ns random(:nlo, :nhi)
\\set none random(1, 10)
\\if :none = 1
UPDATE domain SET nsset = NULL WHERE id = :id;
\\else
UPDATE domain SET nsset = :ns WHERE id = :id;
\\endif
`,
  },
  {
    // The statement every EPP update of any object writes, alone.
    key: "contact",
    title: "object.update written (a contact's UPDATE alone)",
    script: `\\set id random(:clo, :chi)
\\set registrar random(:rlo, :rhi)
UPDATE object SET upid = :registrar, update = now() WHERE id = :id;
`,
  },
  {
    // fred-server's EPP contact update (src/backend/epp/contact/update_contact.cc, 2.54): in one
    // transaction, LockObjectStateRequestLock and PerformObjectStateRequest for the contact "before
    // any object state related checks", then the contact's rows (here: object's).
    key: "eppcontact",
    title: "EPP contact update (lock, update_object_states(id), update; one transaction)",
    script: `\\set id random(:clo, :chi)
\\set registrar random(:rlo, :rhi)
BEGIN;
SELECT lock_object_state_request_lock(:id);
SELECT update_object_states(:id);
UPDATE object SET upid = :registrar, update = now() WHERE id = :id;
COMMIT;
`,
  },
  {
    // Two EPP updates, two transactions; a contact already linked to the domain is refused by
    // FRED's EPP server before it writes, so then nothing is written.
    key: "admin",
    title: "admin contact added, then removed (2 transactions)",
    script: `\\set d random(:dlo, :dhi)
\\set c random(:clo, :chi)
WITH added AS (INSERT INTO domain_contact_map (domainid, contactid, role) VALUES (:d, :c, 1) ON CONFLICT DO NOTHING RETURNING 1) SELECT count(*) AS added FROM added \\gset
\\if :added
DELETE FROM domain_contact_map WHERE domainid = :d AND contactid = :c AND role = 1;
\\endif
`,
  },
  {
    key: "request",
    title: `fred-admin: a ${requestStateName} request + update_object_states(id), one transaction`,
    script: `\\set id random(:dlo, :dhi)
\\set slot random(1, ${REQUEST_SLOTS})
BEGIN;
INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to) VALUES (:id, ${requestState}, timestamp '${REQUEST_EPOCH}' + :slot * interval '2 minutes', timestamp '${REQUEST_EPOCH}' + :slot * interval '2 minutes' + interval '1 minute');
SELECT update_object_states(:id);
COMMIT;
`,
  },
  {
    key: "call",
    title: "update_object_states(id) before an EPP command",
    script: `\\set id random(:dlo, :dhi)
SELECT update_object_states(:id);
`,
  },
];
const CLIENTS = [1, 8];
const RENEWS = 1000;

interface Run {
  tps: number;
  p50: number;
  p95: number;
  done: number;
  failed: number;
  /** Errors that aborted a client (anything but a deadlock or serialization failure). */
  errors: string[];
}

function positive(name: string, value: string | undefined, fallback: number): number {
  const n = Number(value ?? fallback);
  if (!Number.isFinite(n) || n <= 0) throw new StartupError(`--${name} must be a positive number, not “${value}”`);
  return n;
}

const median = (values: number[]) => percentile(values, 50);

try {
  const { domains, options } = benchOptions(1_500_000, ["seconds", "rounds"]);
  const seconds = Math.round(positive("seconds", options.seconds, 20));
  const rounds = Math.round(positive("rounds", options.rounds, 3));
  const config = readConfig();
  if (!config.databaseUrl?.startsWith("postgres"))
    throw new StartupError(
      "bench:fred runs on PostgreSQL: set DATABASE_URL to the FRED registry it creates (a database that does not exist yet) or created before",
    );
  const name = decodeURIComponent(new URL(config.databaseUrl).pathname.slice(1));
  const copyName = `${name}_without`;
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new StartupError(`bench:fred names its databases after “${name}”: use a plain lower-case name`);
  const admin = databaseUrl(config.databaseUrl, "postgres");
  const exists = (db: string) =>
    withClient(admin, async (c) => (await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [db])).rowCount === 1);
  const adminSql = (sql: string) => withClient(admin, (c) => c.query(sql)).then(() => {});
  const withUrl = fredRoleUrl(config.databaseUrl);
  const withoutUrl = fredRoleUrl(databaseUrl(config.databaseUrl, copyName));

  // The adopted registry: created and loaded when missing, refused when it is something else.
  let fresh = false;
  if (!(await exists(name))) {
    console.log(`Creating the FRED registry ${name} (fred-db 2.52 structure.sql, owner fred)…`);
    await createFredDatabase(admin, name);
    fresh = true;
  }
  const db = await openDatabase({ ...config, databaseUrl: withUrl });
  try {
    const [{ fred }] = await db.sql.query<{ fred: boolean }>(
      "SELECT to_regclass('public.enum_parameters') IS NOT NULL AND to_regclass('public.object_state_request_lock') IS NOT NULL AS fred",
    );
    if (!fred)
      throw new StartupError(
        `${db.sql.location} is not a FRED registry: name a database that does not exist yet and bench:fred creates one`,
      );
    const loaded = await count(db.sql, "SELECT count(*) FROM domain");
    await loadBenchRegistry(db, config, domains, options.seed, new Date(), new Date());
    if (loaded === 0) {
      fresh = true;
      console.log("VACUUM ANALYZE…");
      await db.direct.exec("VACUUM ANALYZE");
    }
  } finally {
    await db.close();
  }

  // The un-adopted copy: the same rows, FRED's own procedure and triggers.
  let reuse = !fresh && (await exists(copyName));
  if (reuse) {
    reuse = await withClient(withoutUrl, async (c) => {
      const { rows } = await c.query<{ n: number; console: boolean }>(
        "SELECT (SELECT count(*)::int FROM domain) AS n, to_regnamespace('console') IS NOT NULL AS console",
      );
      return rows[0].n === domains && !rows[0].console;
    });
  }
  if (!reuse) {
    console.log(`Copying ${name} to ${copyName} and removing the console from the copy…`);
    await adminSql(`DROP DATABASE IF EXISTS ${copyName} WITH (FORCE)`);
    const [, copyMs] = await timed(() => adminSql(`CREATE DATABASE ${copyName} TEMPLATE ${name} OWNER fred`));
    const copy = await openDatabase({ ...config, databaseUrl: withoutUrl });
    try {
      await unadopt(copy.direct, { dryRun: false });
    } finally {
      await copy.close();
    }
    console.log(`  copied in ${(copyMs / 1000).toFixed(0)} s`);
  }

  // Id ranges: the demo generator numbers each type's live objects consecutively; both copies hold the same ids.
  const ranges = await withClient(withUrl, async (c) => {
    const { rows } = await c.query<{ what: string; lo: number; hi: number; n: number }>(
      `SELECT 'd' AS what, min(id) AS lo, max(id) AS hi, count(*)::int AS n FROM domain
       UNION ALL SELECT 'c', min(id), max(id), count(*)::int FROM contact
       UNION ALL SELECT 'n', min(id), max(id), count(*)::int FROM nsset
       UNION ALL SELECT 'r', min(id), max(id), count(*)::int FROM registrar`,
    );
    for (const r of rows)
      if (r.hi - r.lo + 1 !== r.n)
        throw new StartupError(`the registry's ${r.what} ids are not consecutive; load it with the demo generator`);
    return Object.fromEntries(
      rows.flatMap((r) => [
        [`${r.what}lo`, r.lo],
        [`${r.what}hi`, r.hi],
      ]),
    ) as Record<string, number>;
  });

  const databases = [
    { key: "without", url: withoutUrl, label: "without console" },
    { key: "with", url: withUrl, label: "with console" },
  ] as const;
  // Leftovers of an interrupted run first (before the request state is chosen), then both
  // registries' due state work, so that every run starts alike.
  const cleanUp = (url: string) =>
    withClient(url, (c) => c.query(`DELETE FROM object_state_request WHERE valid_from >= timestamp '${REQUEST_EPOCH}'`));
  for (const d of databases) await cleanUp(d.url);

  // The request's state: one no existing request (nor its zone counterpart's, which the console
  // refuses beside it) reaches the bench's minutes with; open-ended requests are common.
  const requestState = await withClient(withUrl, async (c) => {
    const { rows } = await c.query<{ id: number; name: string }>(
      `SELECT s.id, s.name FROM enum_object_states s
        WHERE s.manual AND 3 = ANY (s.types)
          AND NOT EXISTS (SELECT FROM object_state_request r
                           WHERE r.state_id IN (s.id, CASE s.id WHEN 5 THEN 6 WHEN 6 THEN 5 END)
                             AND coalesce(least(r.canceled, r.valid_to), 'infinity') > timestamp '${REQUEST_EPOCH}')
        ORDER BY s.id LIMIT 1`,
    );
    if (!rows[0]) throw new StartupError(`every manual domain state has a request in force after ${REQUEST_EPOCH}`);
    return rows[0];
  });
  const ops = operations(requestState.id, requestState.name);

  console.log("Bringing the states of both registries up to date (update_object_states(0))…");
  for (const d of databases) await withClient(d.url, (c) => c.query("SELECT update_object_states(0)"));

  const work = mkdtempSync(path.join(os.tmpdir(), "bench-fred-"));
  const pgbench = postgresProgram("pgbench");
  const defines = Object.entries(ranges).flatMap(([k, v]) => ["-D", `${k}=${v}`]);
  for (const op of ops) writeFileSync(path.join(work, `${op.key}.sql`), op.script);
  // pgbench's random seeds: new for every invocation (the requests' minutes must not repeat), the same for both registries.
  const seedBase = Math.floor(Date.now() / 1000) % 1_000_000_000;

  /** One pgbench run; latencies from its per-transaction log (-l). */
  const bench = (url: string, script: string, clients: number, seed: number, limit: string[], tag: string): Run => {
    const prefix = path.join(work, tag);
    const errors = openSync(`${prefix}.stderr`, "w");
    const result = spawnSync(
      pgbench,
      [
        "-n",
        "-c",
        String(clients),
        "-j",
        String(Math.min(clients, 2)),
        ...limit,
        `--random-seed=${seed}`,
        "--failures-detailed",
        "-l",
        `--log-prefix=${prefix}`,
        "-f",
        path.join(work, `${script}.sql`),
        ...defines,
        url,
      ],
      // FRED's triggers RAISE NOTICE on every request: stderr to a file, not into memory.
      { encoding: "utf8", env: { ...process.env, PGTZ: "UTC" }, stdio: ["ignore", "pipe", errors] },
    );
    closeSync(errors);
    const stderr = readFileSync(`${prefix}.stderr`, "utf8");
    if (result.status !== 0 && result.status !== 2)
      throw new StartupError(
        `pgbench failed (exit ${result.status ?? result.signal ?? result.error}): ${stderr
          .split("\n")
          .filter((l) => !l.startsWith("NOTICE"))
          .slice(0, 5)
          .join("\n")}`,
      );
    const latencies: number[] = [];
    for (const file of readdirSync(work).filter((f) => f.startsWith(`${tag}.`))) {
      if (file.endsWith(".stderr")) {
        rmSync(path.join(work, file));
        continue;
      }
      for (const line of readFileSync(path.join(work, file), "utf8").split("\n")) {
        const time = line.split(" ")[2];
        if (time && /^\d+$/.test(time)) latencies.push(Number(time) / 1000);
      }
      rmSync(path.join(work, file));
    }
    const field = (pattern: RegExp) => Number(pattern.exec(result.stdout)?.[1] ?? 0);
    return {
      tps: field(/tps = ([\d.]+)/),
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      done: latencies.length,
      failed: field(/number of failed transactions: (\d+)/),
      errors: stderr
        .split("\n")
        .filter((l) => /aborted|ERROR/.test(l))
        .map((l) => l.trim()),
    };
  };

  const runs = new Map<string, Run[]>();
  const keyOf = (op: string, clients: number, d: string) => `${op}/${clients}/${d}`;
  const started = new Date();
  for (let round = 0; round < rounds; round++) {
    for (const [o, op] of ops.entries()) {
      for (const clients of CLIENTS) {
        const seed = seedBase + round * 100 + o * 10 + clients;
        for (const d of databases) {
          const run = bench(d.url, op.key, clients, seed, ["-T", String(seconds)], `${op.key}-${clients}-${d.key}-${round}`);
          runs.set(keyOf(op.key, clients, d.key), [...(runs.get(keyOf(op.key, clients, d.key)) ?? []), run]);
          console.log(
            `round ${round + 1}/${rounds} ${op.key.padEnd(7)} ${clients} client(s) ${d.label.padEnd(15)} ${run.tps.toFixed(0).padStart(6)}/s p50 ${ms(run.p50)} ms p95 ${ms(run.p95)} ms` +
              (run.failed || run.errors.length ? ` — ${run.failed} failed, ${run.errors.length} error(s): ${run.errors[0] ?? ""}` : ""),
          );
        }
      }
    }
  }

  // FRED's regular procedure, one client: on the registry as it is, and after 1,000 renews.
  const procedure = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const d of databases) {
      const [, idleMs] = await timed(() => withClient(d.url, (c) => c.query("SELECT update_object_states(0)")));
      const renews = bench(d.url, "renew", 1, seedBase + 9000 + round, ["-t", String(RENEWS)], `procedure-${d.key}-${round}`);
      if (renews.done !== RENEWS) throw new StartupError(`only ${renews.done} of ${RENEWS} renews were done: ${renews.errors[0] ?? ""}`);
      const [, afterMs] = await timed(() => withClient(d.url, (c) => c.query("SELECT update_object_states(0)")));
      procedure.set(`idle/${d.key}`, [...(procedure.get(`idle/${d.key}`) ?? []), idleMs]);
      procedure.set(`renewed/${d.key}`, [...(procedure.get(`renewed/${d.key}`) ?? []), afterMs]);
      console.log(
        `round ${round + 1}/${rounds} update_object_states(0) ${d.label}: ${ms(idleMs)} ms; after ${RENEWS} renews ${ms(afterMs)} ms`,
      );
    }
  }
  rmSync(work, { recursive: true });

  // The bench's requests go; then the adopted registry's engine runs once and its promises are checked.
  for (const d of databases) await cleanUp(d.url);
  const check = await (async () => {
    const checked = await openDatabase({ ...config, databaseUrl: withUrl });
    try {
      const run = await runStateEngine(checked.sql);
      console.log(`State engine (${run.kind}): ${run.objects} object(s) looked at, ${run.opened} opened, ${run.closed} closed.`);
      return await checkDatabase(checked.sql);
    } finally {
      await checked.close();
    }
  })();
  for (const c of check.checks) console.log(`${c.violations === 0 ? "ok  " : "FAIL"} ${c.name}${c.violations ? `: ${c.violations}` : ""}`);
  for (const c of check.checks) for (const example of c.examples) console.log(`       ${example}`);

  const [{ version, objects }] = await withClient(withUrl, async (c) => {
    const { rows } = await c.query<{ version: string; objects: number }>(
      "SELECT current_setting('server_version') AS version, (SELECT count(*)::int FROM object_registry) AS objects",
    );
    return rows;
  });

  const lines: string[] = [];
  const say = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  const within = (without: number, withConsole: number) => withConsole <= Math.max(without * 1.05, without + 0.1);
  // One RESULTS section per registry size: a run on the small registry keeps the 1.5-million table.
  const heading = `## FRED's own operations without and with the console (\`npm run bench:fred -- --domains ${domains} `;
  say(`${heading}--seconds ${seconds} --rounds ${rounds}\`), ${started.toISOString().slice(0, 16)}Z`);
  say("");
  say(machineLine(version));
  say(
    `Data: ${objects.toLocaleString("en")} objects (${domains.toLocaleString("en")} domains), in two databases: \`${name}\` (adopted) and \`${copyName}\` (the same rows, console removed with \`db:unadopt\`).`,
  );
  say(
    `pgbench 15 as role fred, ${seconds} s per run, ${rounds} rounds interleaved (without, with, without, with, …), the same random ids in both databases (seeds ${seedBase}+); figures are medians of the rounds' runs. Per-transaction latencies in ms from pgbench's log; “per s” is pgbench's tps.`,
  );
  say("");
  say(
    "| operation | clients | without: per s | p50 | p95 | with console: per s | p50 | p95 | ratio p50 | ratio p95 | failed / errors (without, with) | met |",
  );
  say("|---|---|---|---|---|---|---|---|---|---|---|---|");
  let missed = 0;
  for (const op of ops) {
    for (const clients of CLIENTS) {
      const [a, b] = databases.map((d) => runs.get(keyOf(op.key, clients, d.key)) ?? []);
      const m = (list: Run[], f: (r: Run) => number) => median(list.map(f));
      const [aP50, aP95, bP50, bP95] = [m(a, (r) => r.p50), m(a, (r) => r.p95), m(b, (r) => r.p50), m(b, (r) => r.p95)];
      const trouble = (list: Run[]) => `${list.reduce((n, r) => n + r.failed, 0)} / ${list.reduce((n, r) => n + r.errors.length, 0)}`;
      const met = within(aP50, bP50) && within(aP95, bP95);
      if (!met) missed++;
      say(
        `| ${op.title} | ${clients} | ${m(a, (r) => r.tps).toFixed(0)} | ${ms(aP50)} | ${ms(aP95)} | ${m(b, (r) => r.tps).toFixed(0)} | ${ms(bP50)} | ${ms(bP95)} | ${(bP50 / aP50).toFixed(2)} | ${(bP95 / aP95).toFixed(2)} | ${trouble(a)}, ${trouble(b)} | ${met ? "yes" : "**no**"} |`,
      );
    }
  }
  say("");
  say(
    `Target: with the console at most 5 % slower than without, or 0.1 ms, whichever is larger, at p50 and at p95; ${missed === 0 ? "every operation meets it" : `${missed} of ${ops.length * CLIENTS.length} miss it`}. Failed: deadlocks and serialization failures pgbench counted; errors: clients aborted by another error.`,
  );
  say("");
  say(
    `| FRED's regular procedure, one client (${rounds} runs each, ms) | without console: median | min – max | with console: median | min – max |`,
  );
  say("|---|---|---|---|---|");
  for (const [key, title] of [
    ["idle", "`update_object_states(0)` on the registry as it is"],
    ["renewed", `\`update_object_states(0)\` after ${RENEWS.toLocaleString("en")} renews`],
  ]) {
    const [a, b] = databases.map((d) => procedure.get(`${key}/${d.key}`) ?? []);
    say(
      `| ${title} | ${ms(median(a))} | ${ms(Math.min(...a))} – ${ms(Math.max(...a))} | ${ms(median(b))} | ${ms(Math.min(...b))} – ${ms(Math.max(...b))} |`,
    );
  }
  say("");
  say(
    `Afterwards (the bench's requests deleted, the engine run once): \`db:check\` on \`${name}\`: ${
      check.ok
        ? "all checks hold"
        : `**${check.checks
            .filter((c) => c.violations > 0)
            .map((c) => `${c.name}: ${c.violations}`)
            .join(", ")}**`
    }.`,
  );
  writeResults(heading, lines);
  if (!check.ok) {
    console.error("The adopted registry does not keep all its promises after FRED's writes (see FAIL above).");
    process.exitCode = 2;
  }
} catch (error) {
  exitOnStartupError(error, "bench:fred failed");
}
