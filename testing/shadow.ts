// A FRED 2.52 registry in shadow mode with what shadow's comparison must find (issue 40): FRED's known
// bugs, written past the console's request rules as FRED's programs wrote them, FRED's regular
// procedure run as its cron runs it, and a planted difference no rule or bug explains. For
// lib/states/shadow.test.ts and lib/states/shadow-page.test.ts (PostgreSQL).
import pg from "pg";
import { moveMode } from "../lib/db/adoption-mode";
import { type Database, openDatabase } from "../lib/db/client";
import { migrate } from "../lib/db/migrations";
import { seedDemo } from "../prisma/demo/load";
import { createFredDatabase, fredBugCases } from "./fred";

const SHADOW_ZONE = "Europe/Prague";

export interface ShadowRegistry {
  fred: Awaited<ReturnType<typeof createFredDatabase>>;
  /** The owner's connection (migrations, moves). */
  db: Database;
  /** A connection as FRED's programs open it (role of the admin URL), in a UTC session. */
  client: pg.Client;
  /** Objects whose difference is one of FRED's known bugs: bug-automatic.cz (request_wrong_state), bug-canceled-later.cz (request_canceled_later). */
  bugs: { automatic: number; canceled: number };
  /** The planted difference: serverRenewProhibited (2) in FRED's object_state on a domain without requests, that nothing gives. */
  planted: { object_id: number; state_id: number; name: string };
  /** Closes the connections (the database goes with fred.drop). */
  close(): Promise<void>;
}

/** Creates the registry (200 demo domains), puts it in shadow, runs FRED's procedure, plants the difference. */
export async function shadowRegistry(adminUrl: string): Promise<ShadowRegistry> {
  const fred = await createFredDatabase(adminUrl);
  const db = await openDatabase({ databaseUrl: fred.url, pgliteDir: "" });
  const client = new pg.Client({ connectionString: fred.url });
  await client.connect();
  try {
    return await prepare(fred, db, client);
  } catch (error) {
    await client.end();
    await db.close();
    throw error;
  }
}

async function prepare(fred: ShadowRegistry["fred"], db: Database, client: pg.Client): Promise<ShadowRegistry> {
  await migrate(db.direct, undefined, { adoptAs: "charge" });
  await seedDemo(db.direct, { domains: 200, seed: 1, now: new Date(), timeZone: SHADOW_ZONE });
  // FRED's known bugs, written past the console's request rules (as FRED's programs wrote them).
  await client.query(`
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('EDGE-HOLDER', 1, 'EDGE-HOLDER', 1, '2020-01-01'), ('EDGE-NS', 2, 'EDGE-NS', 1, '2020-01-01');
    INSERT INTO object (id, clid) SELECT id, 1 FROM object_registry WHERE name IN ('EDGE-HOLDER', 'EDGE-NS');
    INSERT INTO contact (id, name) SELECT id, 'Edge holder' FROM object_registry WHERE name = 'EDGE-HOLDER';
    INSERT INTO nsset (id) SELECT id FROM object_registry WHERE name = 'EDGE-NS';`);
  await client.query("ALTER TABLE object_state_request DISABLE TRIGGER console_1_request_check");
  await client.query(fredBugCases(SHADOW_ZONE));
  await client.query("ALTER TABLE object_state_request ENABLE TRIGGER console_1_request_check");
  await moveMode(db.direct, "shadow");
  // FRED's regular procedure, as its cron runs it (a UTC session).
  await client.query("SET TimeZone TO 'UTC'");
  await client.query("SELECT update_object_states(0)");
  const id = async (name: string) =>
    (await client.query<{ id: number }>("SELECT id FROM object_registry WHERE name = $1", [name])).rows[0].id;
  const bugs = { automatic: await id("bug-automatic.cz"), canceled: await id("bug-canceled-later.cz") };
  // The planted difference: a state FRED's table holds that nothing gives (a domain without requests).
  const {
    rows: [planted],
  } = await client.query<{ object_id: number; state_id: number; name: string }>(
    `WITH planted AS (
       INSERT INTO object_state (object_id, state_id, valid_from)
       SELECT d.id, 2, now() AT TIME ZONE 'UTC' - interval '1 hour' FROM domain d
        WHERE NOT EXISTS (SELECT FROM object_state_request r WHERE r.object_id = d.id)
          AND NOT EXISTS (SELECT FROM object_state s WHERE s.object_id = d.id AND s.state_id = 2 AND s.valid_to IS NULL)
        ORDER BY d.id LIMIT 1 RETURNING object_id, state_id)
     SELECT p.object_id, p.state_id, o.name FROM planted p JOIN object_registry o ON o.id = p.object_id`,
  );
  return {
    fred,
    db,
    client,
    bugs,
    planted,
    close: async () => {
      await client.end();
      await db.close();
    },
  };
}
