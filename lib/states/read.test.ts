import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { baseRegistry, createObject, TYPE } from "../../testing/registry";
import { actAs, signedInAs } from "../../testing/sessions";
import type { Database } from "../db/client";
import { objectsInStateAt } from "./read";

describe.each(testBackends())("objects that had a state at an instant, on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  const ids: number[] = [];

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    await baseRegistry(db.sql);
    for (const name of ["AT-A", "AT-B", "AT-C", "AT-D"]) ids.push(await createObject(db.sql, TYPE.contact, name, "2025-01-01T00:00:00Z"));
    const [a, b, c, d] = ids;
    // Rows of the history as stored (UTC, [valid_from, valid_to)): A held it in March, B from
    // March on, C from May, D held another state in March.
    const row = (id: number, state: string, from: string, to: string | null) =>
      db.sql.query(
        `INSERT INTO object_state (object_id, state_id, valid_from, valid_to)
         SELECT $1, s.id, $3::timestamp, $4::timestamp FROM enum_object_states s WHERE s.name = $2`,
        [id, state, from, to],
      );
    await row(a, "serverBlocked", "2026-03-01 00:00:00", "2026-04-01 00:00:00");
    await row(b, "serverBlocked", "2026-03-01 00:00:00", null);
    await row(c, "serverBlocked", "2026-05-01 00:00:00", null);
    await row(d, "serverDeleteProhibited", "2026-03-01 00:00:00", "2026-04-01 00:00:00");
  });
  afterAll(() => drop());

  const at = async (instant: string, options?: { afterId?: number; limit?: number }) =>
    actAs(await signedInAs(db, "support"), () => objectsInStateAt("serverBlocked", new Date(instant), options));

  it("lists the objects whose row covers the instant, in id order, a row's end not included", async () => {
    const [a, b, c] = ids;
    expect(await at("2026-03-15T12:00:00Z")).toEqual([a, b]);
    expect(await at("2026-03-01T00:00:00Z")).toEqual([a, b]);
    expect(await at("2026-02-28T23:59:59Z")).toEqual([]);
    expect(await at("2026-04-01T00:00:00Z")).toEqual([b]);
    expect(await at("2026-06-01T00:00:00Z")).toEqual([b, c]);
  });

  it("pages after an id and within a limit", async () => {
    const [a, b, c] = ids;
    expect(await at("2026-06-01T00:00:00Z", { afterId: b })).toEqual([c]);
    expect(await at("2026-03-15T12:00:00Z", { limit: 1 })).toEqual([a]);
    expect(await at("2026-03-15T12:00:00Z", { afterId: a, limit: 1 })).toEqual([b]);
  });
});
