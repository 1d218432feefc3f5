// `npm run bench:states -- --domains N [--seed S]` against the PostgreSQL in DATABASE_URL: times the
// state engine against the design document's own procedure on the same data, and writes the
// figures into bench/RESULTS.md. An empty registry is first loaded with the demo generator.

import { rolledBack } from "../lib/db/driver";
import { exitOnStartupError } from "../lib/db/errors";
import { runStateEngine } from "../lib/states/engine";
import { machineLine, openBenchRegistry, timed, writeResults } from "./bench-registry";

const DAY = 86_400_000;

// seeds/000, as written, with the one fix STATES.md names: a request is in force from valid_from
// on (the document filters valid_from >= now). It works on its own copy of object_state.
const BASELINE = `
DROP SCHEMA IF EXISTS bench_baseline CASCADE;
CREATE SCHEMA bench_baseline;
SET search_path = bench_baseline, public;
CREATE TABLE bench_baseline.object_state (LIKE public.object_state INCLUDING DEFAULTS INCLUDING INDEXES);
INSERT INTO bench_baseline.object_state SELECT * FROM public.object_state;
ANALYZE bench_baseline.object_state;
CREATE AGGREGATE array_accum (anycompatible) (sfunc = array_append, stype = anycompatiblearray, initcond = '{}');
CREATE VIEW object_state_now AS SELECT object_id, array_accum(state_id) AS states FROM object_state WHERE valid_to ISNULL GROUP BY object_id;
CREATE VIEW object_state_request_now AS SELECT object_id, array_accum(state_id) AS states FROM object_state_request
  WHERE valid_from<=CURRENT_TIMESTAMP AND (valid_to ISNULL OR valid_to>=CURRENT_TIMESTAMP) AND canceled ISNULL GROUP BY object_id;
CREATE VIEW domain_states AS SELECT d.id AS object_id, COALESCE(osr.states,'{}') ||
  CASE WHEN d.exdate - INTERVAL '30 days' <= CURRENT_DATE THEN ARRAY[8] ELSE '{}' END ||
  CASE WHEN d.exdate <= CURRENT_DATE THEN ARRAY[9] ELSE '{}' END ||
  CASE WHEN d.exdate + INTERVAL '30 days' + INTERVAL '14 hours' <= CURRENT_TIMESTAMP THEN ARRAY[10] ELSE '{}' END ||
  CASE WHEN e.exdate - INTERVAL '30 days' <= CURRENT_DATE THEN ARRAY[11] ELSE '{}' END ||
  CASE WHEN e.exdate - INTERVAL '15 days' <= CURRENT_DATE THEN ARRAY[12] ELSE '{}' END ||
  CASE WHEN e.exdate + INTERVAL '14 hours' <= CURRENT_TIMESTAMP THEN ARRAY[13] ELSE '{}' END ||
  CASE WHEN d.nsset ISNULL THEN ARRAY[14] ELSE '{}' END ||
  CASE WHEN d.nsset ISNULL OR 5 = ANY(osr.states) OR ( d.exdate + INTERVAL '30 days' + INTERVAL '14 hours' <= CURRENT_TIMESTAMP
    OR e.exdate + INTERVAL '14 hours' <= CURRENT_TIMESTAMP ) AND NOT (6 = ANY(osr.states)) THEN ARRAY[15] ELSE '{}' END ||
  CASE WHEN d.exdate + INTERVAL '45 days' + INTERVAL '14 hours' <= CURRENT_TIMESTAMP THEN ARRAY[17] ELSE '{}' END AS states
  FROM domain d LEFT JOIN enumval e ON (d.id=e.domainid) LEFT JOIN object_state_request_now osr ON (d.id=osr.object_id);
CREATE VIEW nsset_states AS SELECT n.id AS object_id, COALESCE(osr.states,'{}') ||
  CASE WHEN NOT(d.nsset ISNULL) THEN ARRAY[16] ELSE '{}' END ||
  CASE WHEN n.id ISNULL AND CAST(COALESCE(l.last_linked,o.crdate) AS DATE) + INTERVAL '6 month' + INTERVAL '14 hours' <= CURRENT_TIMESTAMP THEN ARRAY[17] ELSE '{}' END AS states
  FROM object_registry o, nsset n LEFT JOIN ( SELECT DISTINCT nsset FROM domain ) AS d ON (d.nsset=n.id)
  LEFT JOIN ( SELECT object_id, MAX(valid_to) AS last_linked FROM object_state WHERE state_id=16 GROUP BY object_id ) AS l ON (n.id=l.object_id)
  LEFT JOIN object_state_request_now osr ON (n.id=osr.object_id) WHERE o.type=2 AND o.id=n.id;
CREATE VIEW contact_states AS SELECT c.id AS object_id, COALESCE(osr.states,'{}') ||
  CASE WHEN NOT(cl.cid ISNULL) THEN ARRAY[16] ELSE '{}' END ||
  CASE WHEN cl.cid ISNULL AND CAST(COALESCE(l.last_linked,o.crdate) AS DATE) + INTERVAL '6 month' + INTERVAL '14 hours' <= CURRENT_TIMESTAMP THEN ARRAY[17] ELSE '{}' END AS states
  FROM object_registry o, contact c LEFT JOIN ( SELECT registrant AS cid FROM domain UNION SELECT contactid AS cid FROM domain_contact_map
    UNION SELECT contactid AS cid FROM nsset_contact_map ) AS cl ON (c.id=cl.cid)
  LEFT JOIN ( SELECT object_id, MAX(valid_to) AS last_linked FROM object_state WHERE state_id=16 GROUP BY object_id ) AS l ON (c.id=l.object_id)
  LEFT JOIN object_state_request_now osr ON (c.id=osr.object_id) WHERE o.type=1 AND o.id=c.id;
CREATE FUNCTION array_sort_dist (ANYARRAY) RETURNS ANYARRAY LANGUAGE SQL AS $$
  SELECT ARRAY( SELECT DISTINCT $1[s.i] AS "sort" FROM generate_series(array_lower($1,1), array_upper($1,1)) AS s(i) ORDER BY sort ); $$ IMMUTABLE;
CREATE FUNCTION update_object_states() RETURNS void AS $$
BEGIN
  IF NOT EXISTS( SELECT relname FROM pg_class WHERE relname = 'tmp_object_state_change' AND relkind = 'r' AND pg_table_is_visible(oid) ) THEN
    CREATE TEMPORARY TABLE tmp_object_state_change ( object_id INTEGER, new_states INTEGER[], old_states INTEGER[] );
  ELSE TRUNCATE tmp_object_state_change; END IF;
  INSERT INTO tmp_object_state_change SELECT st.object_id, st.states AS new_states, COALESCE(o.states,'{}') AS old_states
    FROM ( SELECT * FROM domain_states UNION SELECT * FROM contact_states UNION SELECT * FROM nsset_states ) AS st
    LEFT JOIN object_state_now o ON (st.object_id=o.object_id)
   WHERE array_sort_dist(st.states)!=COALESCE(array_sort_dist(o.states),'{}');
  INSERT INTO object_state (object_id,state_id,valid_from) SELECT c.object_id,e.id,CURRENT_TIMESTAMP
    FROM tmp_object_state_change c, enum_object_states e WHERE e.id = ANY(c.new_states) AND e.id != ALL(c.old_states);
  UPDATE object_state SET valid_to=CURRENT_TIMESTAMP FROM enum_object_states e, tmp_object_state_change c
   WHERE e.id = ANY(c.old_states) AND e.id != ALL(c.new_states) AND e.id=object_state.state_id and c.object_id=object_state.object_id AND object_state.valid_to ISNULL;
END; $$ LANGUAGE plpgsql;
RESET search_path;
`;

try {
  const { db, domains, now } = await openBenchRegistry("bench:states", 100_000, null);
  const lines: string[] = [];
  const say = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  try {
    await db.direct.exec("ANALYZE");
    await db.direct.exec(
      "TRUNCATE object_state, console.state_pending, console.state_next_event CASCADE; UPDATE console.state_engine SET cursor = NULL",
    );

    const yesterday = new Date(now.getTime() - DAY);
    const [build, buildMs] = await timed(() => runStateEngine(db.sql, { at: yesterday, full: true }));
    await db.direct.exec("ANALYZE object_state");
    const sizes = await db.sql.query<{ what: string; n: number }>(
      `SELECT 'objects' AS what, count(*)::int AS n FROM object_registry UNION ALL SELECT 'domains', count(*)::int FROM domain
       UNION ALL SELECT 'contacts', count(*)::int FROM contact UNION ALL SELECT 'nssets', count(*)::int FROM nsset
       UNION ALL SELECT 'keysets', count(*)::int FROM keyset UNION ALL SELECT 'requests', count(*)::int FROM object_state_request
       UNION ALL SELECT 'object_state rows', count(*)::int FROM object_state`,
    );

    await db.direct.exec(BASELINE);
    const [, baselineMs] = await timed(() =>
      db.direct.transaction(async (tx) => {
        await tx.exec("SET LOCAL search_path = bench_baseline, public");
        await tx.query("SELECT bench_baseline.update_object_states()");
      }),
    );
    await db.direct.exec("DROP SCHEMA bench_baseline CASCADE");
    // A second baseline on an adopted FRED registry: FRED 2.52's own update_object_states(0), as the
    // console found it (console.replaced_fred_objects), on the same data; rolled back, so the runs
    // below start from the same history. It recomputes every object on every call.
    const [fredDefinition] = await db.sql.query<{ definition: string }>(
      "SELECT definition FROM console.replaced_fred_objects WHERE kind = 'function' AND name = 'update_object_states(integer)'",
    );
    let fredMs: number | null = null;
    if (fredDefinition) {
      [, fredMs] = await timed(() =>
        rolledBack(db.direct, async (tx) => {
          // The first baseline left its own, narrower work table of the same name in this session.
          await tx.exec("DROP TABLE IF EXISTS pg_temp.tmp_object_state_change");
          await tx.exec("CREATE SCHEMA bench_fred");
          await tx.exec(
            fredDefinition.definition.replace(/FUNCTION public\.update_object_states\(/, "FUNCTION bench_fred.update_object_states("),
          );
          await tx.exec("SET LOCAL search_path = public");
          await tx.query("SELECT bench_fred.update_object_states(0)");
        }),
      );
    }

    const [full, fullMs] = await timed(() => runStateEngine(db.sql, { at: now, full: true }));
    const [idle, idleMs] = await timed(() => runStateEngine(db.sql, { at: new Date(now.getTime() + 1000) }));
    const [day, dayMs] = await timed(() => runStateEngine(db.sql, { at: new Date(now.getTime() + DAY) }));
    const pgVersion = (await db.sql.query<{ v: string }>("SELECT current_setting($1) AS v", ["server_version"]))[0].v;

    const ratio = (ms: number) => `${(baselineMs / ms).toFixed(1)}× faster`;
    say(`## State engine (\`npm run bench:states -- --domains ${domains}\`), ${now.toISOString().slice(0, 16)}Z`);
    say("");
    say(machineLine(pgVersion));
    say(`Data: ${sizes.map((s) => `${s.n.toLocaleString("en")} ${s.what}`).join(", ")}.`);
    say("");
    say("| run | time | objects looked at | states opened / closed | vs. baseline |");
    say("|---|---|---|---|---|");
    say(
      `| first build of all history (from creation to yesterday) | ${(buildMs / 1000).toFixed(2)} s | ${build.objects.toLocaleString("en")} | ${build.opened.toLocaleString("en")} / ${build.closed} | |`,
    );
    say(`| baseline: the design document's update_object_states() (valid_from fixed) | ${(baselineMs / 1000).toFixed(2)} s | all | | 1× |`);
    if (fredMs !== null)
      say(
        `| second baseline: FRED 2.52's own update_object_states(0), every object on every call (full, nothing due and a day's advance alike) | ${(fredMs / 1000).toFixed(2)} s | all | | ${(baselineMs / fredMs).toFixed(1)}× |`,
      );
    say(
      `| \`--full\`: every object, yesterday → now | ${(fullMs / 1000).toFixed(2)} s | ${full.objects.toLocaleString("en")} | ${full.opened.toLocaleString("en")} / ${full.closed.toLocaleString("en")} | ${ratio(fullMs)} |`,
    );
    say(
      `| scheduled run with nothing due | ${idleMs.toFixed(1)} ms | ${idle.objects} | ${idle.opened} / ${idle.closed} | ${ratio(idleMs)} |`,
    );
    say(
      `| scheduled run after advancing one day | ${(dayMs / 1000).toFixed(2)} s | ${day.objects.toLocaleString("en")} | ${day.opened.toLocaleString("en")} / ${day.closed.toLocaleString("en")} | ${ratio(dayMs)} |`,
    );
    say("");
    say("Targets: `--full` at least 10× faster than the baseline; nothing due under 100 ms; one day's advance under 10 s.");

    writeResults("## State engine", lines);
  } finally {
    await db.close();
  }
} catch (error) {
  exitOnStartupError(error, "bench:states failed");
}
