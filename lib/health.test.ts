import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "./db/client";
import { migrate } from "./db/migrations";
import { healthReport } from "./health";
import { runStateEngine } from "./states/engine";
import { testBackends } from "./testing/databases";

describe.each(testBackends())("health on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await backend.create());
  });
  afterAll(() => drop());

  it("says what is wrong: migrations pending, the engine not run, then all well", async () => {
    await migrate(db.sql, []);
    const empty = await healthReport(db.sql, 60);
    expect(empty.status).toBe("degraded");
    expect(empty.migrations).toMatch(/^\d+ pending$/);
    await migrate(db.sql);
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
});
