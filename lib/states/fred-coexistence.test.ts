// The console's engine beside FRED's own programs (issue 25, PostgreSQL + fred-db 2.52 only): FRED's
// writes, made as FRED's programs make them (role fred, UTC sessions, its own SQL), never wait for a
// scheduled or full engine run; the states in force when such a write commits are the ones FRED's
// own state views (domain_states, contact_states, nsset_states, keyset_states) compute for the
// object, dated at the write's instant, without any engine run afterwards; a transaction that
// changes an object several times leaves its history continuous; FRED's domain delete and create
// close, open and link at commit.
//
// The objects are chosen so that no threshold of theirs is within days of now: FRED's known bugs
// (docs/fred.md "The state rules": CURRENT_DATE, valid_to counted as in force, the UTC date of an unlinked object)
// cannot make its views differ from the console's rules on them.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/demo/load";
import { createFredDatabase, fredDesiredStates, fredSchemaAvailable } from "../../testing/fred";
import { openDatabase } from "../db/client";
import { migrate } from "../db/migrations";

const adminUrl = process.env.TEST_DATABASE_URL;
const ZONE = "Europe/Prague";

/**
 * One kit of objects named after `p` (lower case for domains, upper case for handles), written
 * without the state triggers (a full run follows): each object is the subject of one kind of FRED
 * change below. Expiration dates are days from today in the registry's zone.
 */
const kit = (p: string) => {
  const P = p.toUpperCase();
  return `
DO $$
DECLARE
    today date := (now() AT TIME ZONE '${ZONE}')::date;
    v_reg integer := (SELECT min(id) FROM registrar);
    v_zone integer := (SELECT id FROM zone WHERE fqdn = 'cz');
    v_id integer;
    v_holder integer;
    v_ns integer;
    x record;
BEGIN
    PERFORM set_config('registry.state_marks', 'off', true);
    -- Contacts (type 1) and nssets (type 2), created long ago.
    FOR x IN SELECT * FROM (VALUES ('${P}-HOLDER', 1), ('${P}-IDLE', 1), ('${P}-IDLE2', 1), ('${P}-OLD-REG', 1), ('${P}-LAST', 1),
                                   ('${P}-REQ', 1), ('${P}-NEVER', 1), ('${P}-NS', 2), ('${P}-NS-ONLY', 2)) AS t (name, type) LOOP
        INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('${P}-' || x.name, x.type, x.name, v_reg, '2020-01-01 10:00')
        RETURNING id INTO v_id;
        INSERT INTO object (id, clid) VALUES (v_id, v_reg);
        IF x.type = 1 THEN INSERT INTO contact (id, name) VALUES (v_id, x.name); ELSE INSERT INTO nsset (id) VALUES (v_id); END IF;
    END LOOP;
    v_holder := (SELECT id FROM object_registry WHERE name = '${P}-HOLDER');
    v_ns := (SELECT id FROM object_registry WHERE name = '${P}-NS');
    -- Domains: (name, expiration in days from today, registrant, nsset).
    FOR x IN SELECT * FROM (VALUES ('${p}-expired.cz', -10, '${P}-HOLDER', '${P}-NS'),
                                   ('${p}-outzone.cz', -45, '${P}-HOLDER', '${P}-NS'),
                                   ('${p}-nsset.cz', 200, '${P}-HOLDER', '${P}-NS-ONLY'),
                                   ('${p}-link.cz', 200, '${P}-HOLDER', '${P}-NS'),
                                   ('${p}-registrant.cz', 200, '${P}-OLD-REG', '${P}-NS'),
                                   ('${p}-request.cz', 200, '${P}-HOLDER', '${P}-NS'),
                                   ('${p}-renew-prohibited.cz', -10, '${P}-HOLDER', '${P}-NS')) AS t (name, days, registrant, nsset) LOOP
        INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('${P}-' || x.name, 3, x.name, v_reg, '2020-01-01 10:00')
        RETURNING id INTO v_id;
        INSERT INTO object (id, clid) VALUES (v_id, v_reg);
        INSERT INTO domain (id, zone, registrant, nsset, exdate)
        VALUES (v_id, v_zone, (SELECT id FROM object_registry WHERE name = x.registrant), (SELECT id FROM object_registry WHERE name = x.nsset),
                today + x.days);
    END LOOP;
    -- ${P}-LAST is linked only as an admin contact of ${p}-link.cz, ${P}-REQ as one of ${p}-request.cz.
    INSERT INTO domain_contact_map (domainid, contactid, role)
    SELECT d.id, c.id, 1 FROM object_registry d JOIN object_registry c ON c.name = '${P}-LAST' WHERE d.name = '${p}-link.cz';
    INSERT INTO domain_contact_map (domainid, contactid, role)
    SELECT d.id, c.id, 1 FROM object_registry d JOIN object_registry c ON c.name = '${P}-REQ' WHERE d.name = '${p}-request.cz';
END $$;`;
};

/** The objects of a kit, by name, and which the kit's changes concern. */
async function kitIds(client: pg.Client, p: string): Promise<Record<string, number>> {
  const { rows } = await client.query<{ id: number; name: string }>(
    "SELECT id, name FROM object_registry WHERE roid LIKE $1 AND erdate IS NULL",
    [`${p.toUpperCase()}-%`],
  );
  return Object.fromEntries(rows.map((r) => [r.name.replace(new RegExp(`^${p}-`, "i"), "").toLowerCase(), r.id]));
}

/**
 * FRED's changes to a kit, each one transaction as FRED's programs write it (an EPP renew, an nsset
 * removed and set again, an admin contact added and the last link of another removed, a registrant
 * changed, requests from now as fred-admin writes them); `withUpdate` follows each request with
 * update_object_states(id) as fred-admin -u and the registry server do. Each returns the objects it
 * concerns.
 */
function kitChanges(ids: Record<string, number>, withUpdate: boolean): { name: string; sql: string[]; objects: number[] }[] {
  const request = (object: number, state: number) => [
    `INSERT INTO object_state_request (object_id, state_id, valid_from, crdate) VALUES (${object}, ${state}, now(), now())`,
    ...(withUpdate ? [`SELECT update_object_states(${object})`] : []),
  ];
  return [
    {
      name: "renew of an expired domain",
      sql: [`UPDATE domain SET exdate = exdate + 365 WHERE id = ${ids["expired.cz"]}`],
      objects: [ids["expired.cz"]],
    },
    {
      name: "renew of an outzone domain",
      sql: [`UPDATE domain SET exdate = exdate + 365 WHERE id = ${ids["outzone.cz"]}`],
      objects: [ids["outzone.cz"]],
    },
    {
      name: "nsset removed",
      sql: [`UPDATE domain SET nsset = NULL WHERE id = ${ids["nsset.cz"]}`],
      objects: [ids["nsset.cz"], ids["ns-only"]],
    },
    {
      name: "nsset set again",
      sql: [`UPDATE domain SET nsset = ${ids["ns-only"]} WHERE id = ${ids["nsset.cz"]}`],
      objects: [ids["nsset.cz"], ids["ns-only"]],
    },
    {
      name: "an unlinked contact linked as admin",
      sql: [`INSERT INTO domain_contact_map (domainid, contactid, role) VALUES (${ids["link.cz"]}, ${ids.idle}, 1)`],
      objects: [ids.idle],
    },
    {
      name: "a contact's last link removed",
      sql: [`DELETE FROM domain_contact_map WHERE domainid = ${ids["link.cz"]} AND contactid = ${ids.last}`],
      objects: [ids.last],
    },
    {
      name: "a registrant changed",
      sql: [`UPDATE domain SET registrant = ${ids.idle2} WHERE id = ${ids["registrant.cz"]}`],
      objects: [ids["registrant.cz"], ids.idle2, ids["old-reg"]],
    },
    {
      // Never updated (object.update NULL), unlinked since its creation: a delete candidate, which
      // its first update ends (FRED's contact_states counts the later of last link and update).
      name: "an unlinked contact updated for the first time",
      sql: [`UPDATE object SET update = now() WHERE id = ${ids.never}`],
      objects: [ids.never],
    },
    { name: "serverOutzoneManual requested from now", sql: request(ids["request.cz"], 5), objects: [ids["request.cz"]] },
    {
      name: "serverRenewProhibited requested from now",
      sql: request(ids["renew-prohibited.cz"], 2),
      objects: [ids["renew-prohibited.cz"]],
    },
    { name: "a contact state requested from now", sql: request(ids.req, 29), objects: [ids.req] },
  ];
}

/** The open states of each object (ids sorted), as object_state has them. */
async function openStates(client: pg.Client, ids: number[]): Promise<Map<number, number[]>> {
  const { rows } = await client.query<{ object_id: number; states: number[] }>(
    `SELECT i AS object_id, coalesce((SELECT array_agg(DISTINCT s.state_id ORDER BY s.state_id) FROM object_state s
                                       WHERE s.object_id = i AND s.valid_to IS NULL), '{}') AS states
       FROM unnest($1::int[]) AS i`,
    [ids],
  );
  return new Map(rows.map((r) => [r.object_id, r.states]));
}

/** Objects whose open states differ from what FRED's views want for them now: "object: console ≠ FRED". */
async function disagreements(client: pg.Client, ids: number[]): Promise<string[]> {
  const console_ = await openStates(client, ids);
  const fred = await fredDesiredStates(client, ids);
  return ids
    .filter((id) => JSON.stringify(console_.get(id)) !== JSON.stringify(fred.get(id) ?? []))
    .map((id) => `${id}: console [${console_.get(id)}] FRED [${fred.get(id) ?? []}]`);
}

/**
 * For each object, the states that opened and closed between `before` and now, and whether each
 * such row starts or ends exactly at `at` (a UTC timestamp as text, microseconds kept): lists the
 * ones that do not.
 */
async function notDatedAt(client: pg.Client, before: Map<number, number[]>, at: string): Promise<string[]> {
  const after = await openStates(client, [...before.keys()]);
  const wrong: string[] = [];
  for (const [id, was] of before) {
    const now = after.get(id) ?? [];
    for (const state of now.filter((s) => !was.includes(s))) {
      const { rows } = await client.query<{ from: string }>(
        "SELECT valid_from::text AS from FROM object_state WHERE object_id = $1 AND state_id = $2 AND valid_to IS NULL",
        [id, state],
      );
      if (rows[0]?.from !== at) wrong.push(`${id}:${state} opened at ${rows[0]?.from}, not ${at}`);
    }
    for (const state of was.filter((s) => !now.includes(s))) {
      const { rows } = await client.query<{ to: string }>(
        "SELECT max(valid_to)::text AS to FROM object_state WHERE object_id = $1 AND state_id = $2",
        [id, state],
      );
      if (rows[0]?.to !== at) wrong.push(`${id}:${state} closed at ${rows[0]?.to}, not ${at}`);
    }
  }
  return wrong;
}

/** A state's history on an object: rows that end where another begins (a break), as text. */
async function breaks(client: pg.Client, objectId: number, stateId: number): Promise<string[]> {
  const { rows } = await client.query<{ at: string }>(
    `SELECT a.valid_to::text AS at FROM object_state a JOIN object_state b
         ON b.object_id = a.object_id AND b.state_id = a.state_id AND b.valid_from = a.valid_to
      WHERE a.object_id = $1 AND a.state_id = $2`,
    [objectId, stateId],
  );
  return rows.map((r) => r.at);
}

/** One FRED transaction (its statements, in a UTC session): its instant as UTC timestamp text. */
async function fredTransaction(client: pg.Client, statements: string[]): Promise<string> {
  await client.query("BEGIN");
  try {
    const [{ at }] = (await client.query<{ at: string }>("SELECT (now() AT TIME ZONE 'UTC')::text AS at")).rows;
    for (const statement of statements) await client.query(statement);
    await client.query("COMMIT");
    return at;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

describe.skipIf(!adminUrl || !fredSchemaAvailable())("the console beside FRED's programs (fred-db 2.52)", () => {
  let fred: Awaited<ReturnType<typeof createFredDatabase>>;
  /** FRED's programs: role fred, UTC. */
  let b: pg.Client;
  /** The console's scheduler (a scheduled or full run). */
  let a: pg.Client;

  beforeAll(async () => {
    fred = await createFredDatabase(adminUrl as string);
    // Adopted and seeded as the owner of FRED's tables, as the README says.
    const db = await openDatabase({ databaseUrl: fred.fredUrl, pgliteDir: "" });
    try {
      await migrate(db.direct, undefined, { adoptAs: "charge" });
      await seedDemo(db.direct, { domains: 300, seed: 25, now: new Date(), timeZone: ZONE });
    } finally {
      await db.close();
    }
    a = new pg.Client({ connectionString: fred.fredUrl });
    b = new pg.Client({ connectionString: fred.fredUrl });
    await a.connect();
    await b.connect();
    await b.query("SET TimeZone TO 'UTC'");
    for (const p of ["now", "full", "sched", "blk", "del", "lean"]) await b.query(kit(p));
    await a.query("SELECT * FROM console.state_engine_run(now(), true)");
  });

  afterAll(async () => {
    await a?.end();
    await b?.end();
    await fred?.drop();
  });

  it("starts where FRED's views are: every kit object agrees before any change", async () => {
    const ids = Object.values(await kitIds(b, "now"));
    expect(ids.length).toBe(16);
    expect(await disagreements(b, ids)).toEqual([]);
  });

  it("has, when each FRED change commits and with no engine run after it, the states FRED's views give, dated at the change", async () => {
    const ids = await kitIds(b, "now");
    let changed = 0;
    for (const change of kitChanges(ids, false)) {
      const before = await openStates(b, change.objects);
      const at = await fredTransaction(b, change.sql);
      expect(await disagreements(b, change.objects), change.name).toEqual([]);
      expect(await notDatedAt(b, before, at), change.name).toEqual([]);
      const after = await openStates(b, change.objects);
      if (JSON.stringify([...after]) !== JSON.stringify([...before])) changed++;
    }
    // Every change changed some state (none of this passes vacuously).
    expect(changed).toBe(kitChanges(ids, false).length);
    // No change waited for a run: nothing is pending.
    expect((await b.query("SELECT count(*)::int AS n FROM console.state_pending")).rows[0].n).toBe(0);
  });
  // A full run deletes and rewrites console.state_next_event and a scheduled run its due rows: FRED's
  // writes take the engine's lock (shared, without waiting) before they read any of the engine's
  // tables, so none waits for a run; what a run holding the engine keeps them from applying is left
  // pending, and the next run applies it from the change's instant.
  describe.each([
    { run: "a full run", kit: "full", sql: "SELECT * FROM console.state_engine_run(now(), true)" },
    { run: "a scheduled run", kit: "sched", sql: "SELECT * FROM console.state_engine_run(now())" },
  ])("while $run holds the engine", ({ kit: p, sql }) => {
    let changes: ReturnType<typeof kitChanges>;
    let objects: number[];
    const instants: { before: Map<number, number[]>; at: string }[] = [];

    beforeAll(async () => {
      changes = kitChanges(await kitIds(b, p), true);
      objects = [...new Set(changes.flatMap((c) => c.objects))];
    });

    it("FRED's writes (role fred, lock_timeout 1s) commit while the run's transaction is open", async () => {
      // The run, its transaction kept open: it holds the engine's lock until A commits.
      await a.query("BEGIN");
      try {
        const [run] = (await a.query<{ kind: string }>(sql)).rows;
        expect(run.kind).toBe(p === "full" ? "full" : "incremental");
        // FRED's writes, each refused if it waited a second for any lock.
        await b.query("SET lock_timeout = '1s'");
        for (const change of changes) {
          const before = await openStates(b, change.objects);
          instants.push({ before, at: await fredTransaction(b, change.sql) });
        }
      } finally {
        await b.query("RESET lock_timeout");
        await a.query("COMMIT");
      }
      expect(instants).toHaveLength(changes.length);
    });

    it("what they change and the run did not apply is pending", async () => {
      // The run held the engine: the changes' objects are not yet as FRED's views want them.
      const wrong = (await disagreements(b, objects)).map((d) => Number(d.split(":")[0]));
      expect(wrong.length).toBeGreaterThan(5);
      const { rows } = await b.query<{ object_id: number }>("SELECT DISTINCT object_id FROM console.state_pending");
      expect(rows.map((r) => r.object_id)).toEqual(expect.arrayContaining(wrong));
    });

    it("the next scheduled run applies them: the objects have FRED's views' states", async () => {
      const pending = (await b.query("SELECT count(DISTINCT object_id)::int AS n FROM console.state_pending")).rows[0].n;
      const [run] = (await a.query<{ kind: string; objects: number }>("SELECT * FROM console.state_engine_run(now())")).rows;
      expect(run.kind).toBe("incremental");
      expect(run.objects).toBeGreaterThanOrEqual(pending);
      expect((await b.query("SELECT count(*)::int AS n FROM console.state_pending")).rows[0].n).toBe(0);
      expect(await disagreements(b, objects)).toEqual([]);
    });

    it("and dates each change's states at the change's instant, not at the run's", async () => {
      const wrong: string[] = [];
      for (const [i, { before, at }] of instants.entries()) {
        // The later changes of the same objects (the nsset removed and set again) are checked last.
        const later = instants.slice(i + 1).some((x) => [...x.before.keys()].some((id) => before.has(id)));
        if (!later) wrong.push(...(await notDatedAt(b, before, at)).map((w) => `${changes[i].name}: ${w}`));
      }
      expect(wrong).toEqual([]);
    });
  });
  describe("a transaction that changes an object several times (FRED's blocking)", () => {
    let ids: Record<string, number>;
    /** ClearObjectStateRequestId: the object's server* requests in force canceled now. */
    const clear = (id: number) =>
      `UPDATE object_state_request SET canceled = CURRENT_TIMESTAMP
        WHERE canceled IS NULL AND object_id = ${id} AND valid_from <= CURRENT_TIMESTAMP
          AND (valid_to IS NULL OR CURRENT_TIMESTAMP < valid_to)
          AND state_id IN (SELECT id FROM enum_object_states WHERE manual AND name LIKE 'server%')`;
    /** CreateObjectStateRequestId: requests for the states from now, with no end. */
    const create = (id: number, states: string[]) =>
      `INSERT INTO object_state_request (object_id, state_id, crdate, valid_from)
       SELECT ${id}, id, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP FROM enum_object_states WHERE name IN (${states.map((n) => `'${n}'`).join(", ")})`;
    const block = ["serverBlocked", "serverUpdateProhibited", "serverTransferProhibited"];

    beforeAll(async () => {
      ids = await kitIds(b, "blk");
      // Blocked by FRED's blockDomainsId earlier (its own transaction, PerformObjectStateRequest after).
      for (const domain of ["expired.cz", "link.cz", "nsset.cz"])
        await fredTransaction(b, [clear(ids[domain]), create(ids[domain], block), `SELECT update_object_states(${ids[domain]})`]);
    });

    it.each([
      { how: "with update_object_states(id) at the end, as blockDomainsId", domain: "expired.cz", update: true },
      { how: "with no engine call (the triggers only)", domain: "link.cz", update: false },
    ])("cancels the block's requests and requests the states kept again at the same instant $how: no break", async ({ domain, update }) => {
      const id = ids[domain];
      const before = await openStates(b, [id]);
      expect(before.get(id)).toEqual(expect.arrayContaining([3, 4, 7]));
      const at = await fredTransaction(b, [
        clear(id),
        create(id, ["serverBlocked", "serverTransferProhibited", "serverDeleteProhibited"]),
        ...(update ? [`SELECT update_object_states(${id})`] : []),
      ]);
      // serverBlocked and serverTransferProhibited go on in the rows opened before; update ends, delete begins.
      for (const state of [3, 7]) expect(await breaks(b, id, state), `state ${state}`).toEqual([]);
      expect(await notDatedAt(b, before, at)).toEqual([]);
      expect((await openStates(b, [id])).get(id)).toEqual(expect.arrayContaining([1, 3, 7]));
      expect((await openStates(b, [id])).get(id)).not.toContain(4);
      expect(await disagreements(b, [id])).toEqual([]);
    });

    it("updateBlockDomainsId's update_object_states between the two halves ends serverBlocked there, as FRED's own check needs", async () => {
      // Restore (cancel every server* request; nothing was in force before the block), then
      // PerformObjectStateRequest, then CreateAdminObjectBlockRequestId (which refuses an object
      // whose serverBlocked state is still open), then PerformObjectStateRequest again.
      const id = ids["nsset.cz"];
      await b.query("BEGIN");
      try {
        const [{ at }] = (await b.query<{ at: string }>("SELECT (now() AT TIME ZONE 'UTC')::text AS at")).rows;
        await b.query(clear(id));
        await b.query(`SELECT update_object_states(${id})`);
        const present = await b.query(
          `SELECT 1 FROM object_state WHERE object_id = $1 AND state_id = 7 AND valid_from <= CURRENT_TIMESTAMP
              AND (valid_to IS NULL OR CURRENT_TIMESTAMP < valid_to)`,
          [id],
        );
        expect(present.rows).toEqual([]);
        await b.query(create(id, ["serverBlocked", "serverDeleteProhibited"]));
        await b.query(`SELECT update_object_states(${id})`);
        await b.query("COMMIT");
        // FRED's own engine writes the same: serverBlocked ends and begins again at the instant.
        expect(await breaks(b, id, 7)).toEqual([at]);
        expect(await disagreements(b, [id])).toEqual([]);
      } catch (error) {
        await b.query("ROLLBACK");
        throw error;
      }
    });
  });

  describe("the cheap write path: links, renews far ahead, the feed, FRED's parameters", () => {
    let ids: Record<string, number>;
    beforeAll(async () => {
      ids = await kitIds(b, "lean");
    });

    it("on a new connection, an nsset changed to another linked one runs only the console's early exits", async () => {
      // fred-server connects anew for each command, and a new backend compiles and plans every
      // function it runs (issue 40): a change that alters no state must not reach the engine's
      // general work, nor the feed's trigger through FRED's object_history_insert (ohid_from).
      const c = new pg.Client({ connectionString: fred.url });
      await c.connect();
      try {
        await c.query("SET track_functions = 'all'");
        await c.query("BEGIN");
        const domain = ids["request.cz"];
        await c.query(`UPDATE domain SET nsset = ${ids["ns-only"]} WHERE id = ${domain}`);
        await c.query(`UPDATE object_state SET ohid_from = ohid_from WHERE object_id = ${domain}`);
        await c.query("SET CONSTRAINTS ALL IMMEDIATE");
        const { rows } = await c.query<{ funcname: string }>(
          "SELECT funcname FROM pg_stat_xact_user_functions WHERE schemaname = 'console' ORDER BY funcname",
        );
        const ran = rows.map((r) => r.funcname);
        expect(ran).toContain("state_changed");
        for (const general of ["state_changed_apply", "state_object_apply", "state_feed_update", "object_state_periods_of"])
          expect(ran).not.toContain(general);
      } finally {
        await c.query("ROLLBACK");
        await c.end();
      }
    });

    it("a link added while another transaction removes the object's last other link keeps it linked", async () => {
      // ns-only is linked by nsset.cz alone. C links it from link.cz and stays open; B then removes
      // nsset.cz's link and commits: B's commit waits on the linked row C holds, then finds C's link.
      const nsOnly = ids["ns-only"];
      expect((await openStates(b, [nsOnly])).get(nsOnly)).toContain(16);
      const c = new pg.Client({ connectionString: fred.fredUrl });
      await c.connect();
      try {
        await c.query("BEGIN");
        await c.query(`UPDATE domain SET nsset = ${nsOnly} WHERE id = ${ids["link.cz"]}`);
        const [{ pid }] = (await b.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows;
        const removed = fredTransaction(b, [`UPDATE domain SET nsset = NULL WHERE id = ${ids["nsset.cz"]}`]);
        let waiting = false;
        for (let i = 0; i < 200 && !waiting; i++) {
          const { rows } = await c.query("SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1", [pid]);
          waiting = rows[0]?.wait_event_type === "Lock";
          if (!waiting) await new Promise((r) => setTimeout(r, 25));
        }
        expect(waiting).toBe(true);
        await c.query("COMMIT");
        await removed;
      } finally {
        await c.end();
      }
      expect((await openStates(b, [nsOnly])).get(nsOnly)).toContain(16);
      expect(await breaks(b, nsOnly, 16)).toEqual([]);
      expect(await disagreements(b, [nsOnly, ids["nsset.cz"], ids["link.cz"]])).toEqual([]);
    });

    it("a renew writes each state it ends to the feed once; a renew of a domain far from expiry writes nothing", async () => {
      const expired = ids["expired.cz"];
      const before = await openStates(b, [expired]);
      const at = await fredTransaction(b, [`UPDATE domain SET exdate = exdate + 365 WHERE id = ${expired}`]);
      const after = (await openStates(b, [expired])).get(expired) ?? [];
      const closed = (before.get(expired) ?? []).filter((s) => !after.includes(s));
      expect(closed.length).toBeGreaterThanOrEqual(2);
      const feed = await b.query<{ state_id: number; change: string; n: number }>(
        `SELECT state_id, change, count(*)::int AS n FROM console.state_changes
          WHERE object_id = $1 AND at = ($2::timestamp AT TIME ZONE 'UTC') GROUP BY 1, 2 ORDER BY 1`,
        [expired, at],
      );
      expect(feed.rows).toEqual(closed.map((state_id) => ({ state_id, change: "left", n: 1 })));
      expect(await disagreements(b, [expired])).toEqual([]);

      const far = ids["request.cz"];
      const rows = async () =>
        (await b.query("SELECT count(*)::int AS n FROM console.state_changes WHERE object_id = $1", [far])).rows[0].n;
      const feedBefore = await rows();
      const statesBefore = await openStates(b, [far]);
      await fredTransaction(b, [`UPDATE domain SET exdate = exdate + 365 WHERE id = ${far}`]);
      expect(await openStates(b, [far])).toEqual(statesBefore);
      expect(await rows()).toBe(feedBefore);
      expect(await disagreements(b, [far])).toEqual([]);
    });

    it("follows FRED's parameters: with a 400-day expiration warning a renew 200 days ahead ends the warning at commit", async () => {
      const domain = ids["registrant.cz"];
      await b.query("UPDATE domain_lifecycle_parameters SET expiration_notify_period = interval '-400 days'");
      try {
        await a.query("SELECT * FROM console.state_engine_run(now(), true)");
        // 200 days from expiry: in the warning now, as FRED's views say too.
        expect((await openStates(b, [domain])).get(domain)).toContain(8);
        expect(await disagreements(b, [domain])).toEqual([]);
        const before = await openStates(b, [domain]);
        const at = await fredTransaction(b, [`UPDATE domain SET exdate = exdate + 365 WHERE id = ${domain}`]);
        expect((await openStates(b, [domain])).get(domain)).not.toContain(8);
        expect(await notDatedAt(b, before, at)).toEqual([]);
        expect(await disagreements(b, [domain])).toEqual([]);
      } finally {
        await b.query("UPDATE domain_lifecycle_parameters SET expiration_notify_period = interval '-30 days'");
        await a.query("SELECT * FROM console.state_engine_run(now(), true)");
      }
    });
  });

  describe("FRED's domain delete and create", () => {
    let ids: Record<string, number>;
    beforeAll(async () => {
      ids = await kitIds(b, "del");
    });

    it.each([
      { domain: "outzone.cz", unlinks: [] as string[] },
      { domain: "link.cz", unlinks: ["last"] },
      { domain: "registrant.cz", unlinks: ["old-reg"] },
      { domain: "nsset.cz", unlinks: ["ns-only"] },
    ])("deleting $domain closes its states at the deletion and unlinks $unlinks", async ({ domain, unlinks }) => {
      const id = ids[domain];
      const others = unlinks.map((u) => ids[u]);
      const before = await openStates(b, [id, ...others]);
      expect(before.get(id)?.length || others.length).toBeGreaterThan(0);
      for (const other of others) expect(before.get(other)).toContain(16);
      // FRED's delete_domain: contact maps, the domain row, the registry row's end, the object row.
      const at = await fredTransaction(b, [
        `DELETE FROM domain_contact_map WHERE domainid = ${id}`,
        `DELETE FROM enumval WHERE domainid = ${id}`,
        `DELETE FROM domain WHERE id = ${id}`,
        `UPDATE object_registry SET erdate = now() WHERE id = ${id}`,
        `DELETE FROM object WHERE id = ${id}`,
      ]);
      expect((await openStates(b, [id])).get(id)).toEqual([]);
      expect(await notDatedAt(b, before, at)).toEqual([]);
      for (const other of others) expect((await openStates(b, [other])).get(other)).toEqual([]);
      expect(await disagreements(b, others)).toEqual([]);
    });

    it("a domain created as FRED's EPP creates it has its states and links its contacts at commit", async () => {
      const contacts = [ids.idle, ids.idle2];
      const before = await openStates(b, contacts);
      for (const c of contacts) expect(before.get(c)).toEqual([17]);
      const at = await fredTransaction(b, [
        `INSERT INTO object_registry (roid, type, name, crid) VALUES ('DEL-NEW', 3, 'del-new.cz', (SELECT min(id) FROM registrar))`,
        "INSERT INTO object (id, clid) VALUES (currval('object_registry_id_seq'), (SELECT min(id) FROM registrar))",
        `INSERT INTO domain (id, zone, registrant, nsset, exdate)
         VALUES (currval('object_registry_id_seq'), (SELECT id FROM zone WHERE fqdn = 'cz'), ${ids.idle}, NULL,
                 (now() AT TIME ZONE '${ZONE}')::date + 365)`,
        `INSERT INTO domain_contact_map (domainid, contactid, role) VALUES (currval('object_registry_id_seq'), ${ids.idle2}, 1)`,
      ]);
      const [{ id }] = (await b.query<{ id: number }>("SELECT id FROM object_registry WHERE name = 'del-new.cz'")).rows;
      // No nsset: nssetMissing and outzone, from its creation.
      expect((await openStates(b, [id])).get(id)).toEqual([14, 15]);
      expect(await notDatedAt(b, new Map([[id, []], ...before]), at)).toEqual([]);
      for (const c of contacts) expect((await openStates(b, [c])).get(c)).toEqual([16]);
      expect(await disagreements(b, [id, ...contacts])).toEqual([]);
    });
  });
});
