// FRED's poll messages on a demo registry that db:seed wrote into a FRED 2.52 database (PostgreSQL
// only): at one instant, FRED's own update_object_states (the definition the console replaced, with
// FRED's triggers on again, as db:unadopt restores them) and, separately, the console's engine, each
// followed by libfred's CreateStateMessages. The (registrar, message type, object) sets must be the
// same except where one of FRED's known bugs (docs/fred.md "The state rules") explains the difference; each kind is
// counted and printed.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/demo/load";
import { createFredDatabase, fredBugCases, fredEdgeCases, fredKnownBugCauses, fredSchemaAvailable } from "../../testing/fred";
import { openDatabase } from "../db/client";
import { migrate } from "../db/migrations";

const adminUrl = process.env.TEST_DATABASE_URL;
const ZONE = "Europe/Prague";

/**
 * The messages of libfred's CreateStateMessages (fred-libfred src/libfred/poll/create_state_messages.cc,
 * run by FRED's regular procedure): for every open state row of these states (deleteCandidate per
 * object type) that has no poll_statechange row yet, a message of the type to the registrar of the
 * object version the row opened with (object_history.historyid = ohid_from), and its
 * poll_statechange row, in state row order.
 */
const CREATE_STATE_MESSAGES_SQL = `
WITH kind (state, object_type, message_type) AS (
  VALUES ('expirationWarning', NULL, 'imp_expiration'), ('expired', NULL, 'expiration'),
         ('validationWarning1', NULL, 'imp_validation'), ('notValidated', NULL, 'validation'),
         ('outzoneUnguarded', NULL, 'outzone'), ('deleteCandidate', 'contact', 'idle_delete_contact'),
         ('deleteCandidate', 'nsset', 'idle_delete_nsset'), ('deleteCandidate', 'domain', 'idle_delete_domain'),
         ('deleteCandidate', 'keyset', 'idle_delete_keyset')
), due AS (
  SELECT nextval('message_id_seq') AS id, v.clid, t.id AS msgtype, s.id AS stateid
    FROM object_state s
    JOIN object_registry o ON o.id = s.object_id
    JOIN object_history v ON v.historyid = s.ohid_from
    JOIN enum_object_states e ON e.id = s.state_id
    JOIN kind k ON k.state = e.name AND (k.object_type IS NULL OR k.object_type = (SELECT y.name FROM enum_object_type y WHERE y.id = o.type))
    JOIN messagetype t ON t.name = k.message_type
   WHERE s.valid_to IS NULL AND NOT EXISTS (SELECT FROM poll_statechange p WHERE p.stateid = s.id)
   ORDER BY s.id
), written AS (
  INSERT INTO message (id, clid, crdate, exdate, seen, msgtype)
  SELECT id, clid, now(), now() + interval '7 days', false, msgtype FROM due ORDER BY stateid
)
INSERT INTO poll_statechange (msgid, stateid) SELECT id, stateid FROM due ORDER BY stateid`;

/** The open state rows the messages are for, whether or not their version is known. */
const DUE_ROWS_SQL = `
SELECT count(*)::int AS n FROM object_state s JOIN enum_object_states e ON e.id = s.state_id
 WHERE s.valid_to IS NULL
   AND e.name IN ('expirationWarning', 'expired', 'validationWarning1', 'notValidated', 'outzoneUnguarded', 'deleteCandidate')`;

/**
 * The hand-made objects are written without history: each gets its creation version, as FRED's
 * programs would have written it, so that its states have a version and their messages a registrar.
 */
const CREATION_VERSIONS_SQL = `
WITH created AS (
  INSERT INTO history (valid_from) SELECT r.crdate FROM object_registry r WHERE r.historyid IS NULL ORDER BY r.id RETURNING id
), numbered AS (
  SELECT id AS historyid, row_number() OVER (ORDER BY id) AS n FROM created
), objects AS (
  SELECT r.id, o.clid, o.upid, o.trdate, o.update, row_number() OVER (ORDER BY r.id) AS n
    FROM object_registry r JOIN object o ON o.id = r.id WHERE r.historyid IS NULL
), versions AS (
  INSERT INTO object_history (historyid, id, clid, upid, trdate, update)
  SELECT v.historyid, x.id, x.clid, x.upid, x.trdate, x.update FROM objects x JOIN numbered v USING (n) RETURNING historyid, id
)
UPDATE object_registry r SET crhistoryid = v.historyid, historyid = v.historyid FROM versions v WHERE v.id = r.id`;

interface Message {
  clid: number;
  type: string;
  object_id: number;
  state_id: number;
  /** The object's sponsoring registrar now. */
  sponsor: number;
}

async function messages(client: pg.Client): Promise<{ messages: Message[]; due: number }> {
  await client.query(CREATE_STATE_MESSAGES_SQL);
  const { rows } = await client.query<Message>(
    `SELECT m.clid, t.name AS type, s.object_id, s.state_id, o.clid AS sponsor
       FROM poll_statechange p JOIN message m ON m.id = p.msgid JOIN messagetype t ON t.id = m.msgtype
       JOIN object_state s ON s.id = p.stateid JOIN object o ON o.id = s.object_id`,
  );
  return { messages: rows, due: (await client.query<{ n: number }>(DUE_ROWS_SQL)).rows[0].n };
}

describe.skipIf(!adminUrl || !fredSchemaAvailable())("FRED's poll messages on the seeded demo registry", () => {
  let fred: Awaited<ReturnType<typeof createFredDatabase>>;
  let client: pg.Client;

  beforeAll(async () => {
    fred = await createFredDatabase(adminUrl as string);
    const db = await openDatabase({ databaseUrl: fred.url, pgliteDir: "" });
    try {
      await migrate(db.direct, undefined, { adoptAs: "charge" });
      await seedDemo(db.direct, { domains: 2000, seed: 4, now: new Date(), timeZone: ZONE });
    } finally {
      await db.close();
    }
    client = new pg.Client({ connectionString: fred.url });
    await client.connect();
    // Every threshold and FRED's known bugs, as in the differential test, each object with its creation version.
    await client.query(fredEdgeCases(ZONE));
    await client.query("ALTER TABLE object_state_request DISABLE TRIGGER console_1_request_check");
    await client.query(fredBugCases(ZONE));
    await client.query("ALTER TABLE object_state_request ENABLE TRIGGER console_1_request_check");
    await client.query(CREATION_VERSIONS_SQL);
    // The states the edge cases wrote themselves (closed linked states) name their versions too.
    await client.query(
      "UPDATE object_state SET ohid_from = r.crhistoryid FROM object_registry r WHERE r.id = object_id AND ohid_from IS NULL",
    );
  });
  afterAll(async () => {
    await client?.end();
    await fred?.drop();
  });

  it("are the same after FRED's update_object_states and after the console's engine, but for FRED's known bugs", async () => {
    // FRED's regular procedure, in a UTC session, as FRED found the registry before adoption: its
    // procedure and triggers back (rolled back afterwards), update_object_states(0) twice, then the
    // messages. Its instant is the transaction's.
    await client.query("SET TimeZone TO 'UTC'");
    await client.query("BEGIN");
    const at = (await client.query<{ at: string }>("SELECT now()::text AS at")).rows[0].at;
    const replaced = await client.query<{ kind: string; name: string; definition: string }>(
      "SELECT kind, name, definition FROM console.replaced_fred_objects ORDER BY kind, name",
    );
    expect(replaced.rows.map((r) => r.name)).toContain("update_object_states(integer)");
    for (const r of replaced.rows) {
      await client.query(r.kind === "function" ? r.definition : `ALTER TABLE ${r.definition} ENABLE TRIGGER "${r.name}"`);
    }
    await client.query("SELECT update_object_states(0)");
    await client.query("SELECT update_object_states(0)");
    const byFred = await messages(client);
    await client.query("ROLLBACK");

    // The console's engine at exactly that instant, every object, then the same messages.
    await client.query("BEGIN");
    await client.query("SELECT * FROM console.state_engine_run($1::timestamptz, true)", [at]);
    const byConsole = await messages(client);
    await client.query("ROLLBACK");

    // Every open row the messages are for names its object's version, so each got its message.
    expect(byFred.messages).toHaveLength(byFred.due);
    expect(byConsole.messages).toHaveLength(byConsole.due);

    const key = (m: Message) => `${m.clid}:${m.type}:${m.object_id}`;
    const fredKeys = new Map(byFred.messages.map((m) => [key(m), m]));
    const consoleKeys = new Map(byConsole.messages.map((m) => [key(m), m]));
    const causes = await fredKnownBugCauses(client, at, ZONE);
    const tally = new Map<string, number>();
    const unexplained: string[] = [];
    const differences = [
      ...[...fredKeys].filter(([k]) => !consoleKeys.has(k)).map(([, m]) => [m, "FRED only", byConsole.messages] as const),
      ...[...consoleKeys].filter(([k]) => !fredKeys.has(k)).map(([, m]) => [m, "console only", byFred.messages] as const),
    ];
    for (const [m, side, other] of differences) {
      // The same message to another registrar: the versions would disagree, which no bug explains.
      const elsewhere = other.find((o) => o.type === m.type && o.object_id === m.object_id);
      const cause = elsewhere ? undefined : (causes.get(`${m.object_id}:${m.state_id}`) ?? causes.get(`${m.object_id}:*`));
      const kind = `${m.type} (${side})`;
      if (cause) tally.set(`${cause}: ${kind}`, (tally.get(`${cause}: ${kind}`) ?? 0) + 1);
      else
        unexplained.push(`${kind} for object ${m.object_id} to registrar ${m.clid}${elsewhere ? `, the other to ${elsewhere.clid}` : ""}`);
    }
    const agreed = [...fredKeys.keys()].filter((k) => consoleKeys.has(k)).length;
    console.log(
      [
        `FRED's run at ${at}: ${agreed} poll messages agree (FRED ${fredKeys.size}, console ${consoleKeys.size}); ${differences.length} differ, ${unexplained.length} unexplained.`,
        ...[...tally].map(([kind, n]) => `  ${n} × ${kind}`),
        ...unexplained.map((u) => `  UNEXPLAINED: ${u}`),
      ].join("\n"),
    );
    expect(unexplained).toEqual([]);
    // In the hour(s) when the UTC date is not yet the registry's (23:00–24:00 UTC in Prague's
    // winter), FRED's CURRENT_DATE explains the expiration it writes before the request case does.
    const { rows: dates } = await client.query<{ differ: boolean }>(
      "SELECT ($1::timestamptz AT TIME ZONE 'UTC')::date <> ($1::timestamptz AT TIME ZONE $2)::date AS differ",
      [at, ZONE],
    );
    expect([...tally.keys()]).toEqual(
      expect.arrayContaining([
        "a date late in the evening UTC (FRED takes the stored UTC date): idle_delete_contact (FRED only)",
        dates[0].differ
          ? "FRED's CURRENT_DATE: the session's date, not the registry's: expiration (FRED only)"
          : "a request for an automatic or another type's state (FRED applies it): expiration (FRED only)",
      ]),
    );
    // A state that opened before the object was transferred: its message goes to the registrar of
    // that time, as FRED's own history would have it.
    expect(byConsole.messages.filter((m) => m.clid !== m.sponsor).length).toBeGreaterThan(0);
    // Every kind of message occurred.
    expect(agreed).toBeGreaterThan(500);
    expect(new Set(byConsole.messages.map((m) => m.type))).toEqual(
      new Set([
        "imp_expiration",
        "expiration",
        "imp_validation",
        "validation",
        "outzone",
        "idle_delete_contact",
        "idle_delete_nsset",
        "idle_delete_domain",
        "idle_delete_keyset",
      ]),
    );
  });
});
