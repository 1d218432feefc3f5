import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "../app/api/health/route";
import { testBackends } from "../testing/databases";
import { actAs, anonymous, signedInAs } from "../testing/sessions";
import type { RequestContext } from "./auth/request-context";
import type { Database } from "./db/client";
import type { SqlDriver } from "./db/driver";
import { migrate } from "./db/migrations";
import { healthReport } from "./health";
import { runStateEngine } from "./states/engine";

describe.each(testBackends())("health on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await backend.create());
  });
  afterAll(() => drop());

  it("says what is wrong: migrations pending, the engine not run, then all well", async () => {
    await migrate(db.direct, []);
    const empty = await healthReport(db.sql, 60);
    expect(empty.status).toBe("degraded");
    expect(empty.migrations).toMatch(/^\d+ pending$/);
    await migrate(db.direct);
    const notRun = await healthReport(db.sql, 60);
    expect(notRun).toMatchObject({
      status: "degraded",
      database: "reachable",
      migrations: "current",
      problems: ["the state engine has not run yet"],
    });
    await runStateEngine(db.sql);
    const ok = await healthReport(db.sql, 60);
    expect(ok).toMatchObject({ status: "ok", migrations: "current", problems: [] });
    expect(ok.scheduler.lagSeconds).toBeLessThan(5);
    // With the engine run from cron (interval 0) its lag is not the console's concern.
    expect((await healthReport(db.sql, 0)).problems).toEqual([]);
  });

  it("tells anyone only whether all is well; an administrator also where and why", async () => {
    await migrate(db.direct);
    const admin = await signedInAs(db, "admin");
    const support = await signedInAs(db, "support");
    const ask = async (context: RequestContext) => {
      const response = await actAs(context, () => GET());
      return { status: response.status, text: await response.text() };
    };
    // The driver's words when the database does not answer (its host and port), as the health
    // check's own connection gets them; sessions are still read, so the administrator is known.
    const refusing: SqlDriver = Object.assign(Object.create(db.sql), {
      query: (sql: string, params?: unknown[]) =>
        sql === "SELECT 1" ? Promise.reject(new Error("connect ECONNREFUSED 10.9.8.7:5432")) : db.sql.query(sql, params),
    });
    const down = { ...db, sql: refusing };
    for (const context of [anonymous(down), { ...support, db: down }]) {
      const { status, text } = await ask(context);
      expect(status).toBe(503);
      expect(JSON.parse(text)).toEqual({ status: "down", database: "unreachable", migrations: "unknown" });
      expect(text).not.toMatch(/10\.9\.8\.7|5432|ECONNREFUSED/);
    }
    const detailed = await ask({ ...admin, db: down });
    expect(detailed.status).toBe(503);
    expect(JSON.parse(detailed.text)).toMatchObject({ status: "down", problems: ["database: connect ECONNREFUSED 10.9.8.7:5432"] });

    // Reachable, the engine late: anyone learns that something is wrong, only an administrator what.
    await db.sql.query("UPDATE console.state_engine SET last_run_finished_at = now() - interval '1 hour'");
    const late = await ask(anonymous(db));
    expect(late.status).toBe(503);
    expect(JSON.parse(late.text)).toEqual({ status: "degraded", database: "reachable", migrations: "current" });
    const lateForAdmin = JSON.parse((await ask(admin)).text);
    expect(lateForAdmin.problems).toEqual([expect.stringMatching(/^the state engine last finished \d+ s ago$/)]);
    expect(lateForAdmin.scheduler.lagSeconds).toBeGreaterThanOrEqual(3600);
  });

  it("tells a signed-in user which engine writes the state history, and anyone else nothing of it", async () => {
    await migrate(db.direct);
    await runStateEngine(db.sql);
    const support = await signedInAs(db, "support");
    const admin = await signedInAs(db, "admin");
    const body = async (context: RequestContext) => JSON.parse(await (await actAs(context, () => GET())).text());
    // A registry the console created: its own engine, always.
    expect((await body(support)).mode).toBe("created");
    expect((await body(admin)).mode).toBe("created");
    expect(await body(anonymous(db))).not.toHaveProperty("mode");
    expect((await healthReport(db.sql, 0)).mode).toBe("created");
  });
});
