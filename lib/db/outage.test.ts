import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequestAction } from "../../app/objects/[id]/actions";
import { bulkAction } from "../../app/requests/bulk/actions";
import { testBackends } from "../../testing/databases";
import { createDomain, createObject, registryAt, TYPE } from "../../testing/registry";
import { actAs, signedInAs } from "../../testing/sessions";
import { type TcpProxy, tcpProxy } from "../../testing/tcp-proxy";
import { english } from "../actions/message";
import { forPage } from "../auth/page";
import { checkDatabase } from "../check";
import { msg } from "../i18n/message";
import { listObjects } from "../objects/list";
import { type Database, openDatabase } from "./client";
import { isDatabaseUnavailable } from "./errors";

// PostgreSQL goes away while people work, and comes back: a relay between the console's connection
// pool and the server is cut (every connection dropped, new ones refused) and restored.
const postgres = testBackends().find((b) => b.name === "postgres");

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};

describe.runIf(postgres)("a database outage (PostgreSQL)", () => {
  let direct: Database;
  let console_: Database;
  let drop: () => Promise<void>;
  let proxy: TcpProxy;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    if (!postgres) return;
    const created = await registryAt(postgres, new Date(), async (tx) => {
      const holder = await createObject(tx, TYPE.contact, "OUTAGE-HOLDER", "2020-01-01T00:00:00Z");
      for (const name of ["one.cz", "two.cz", "three.cz"])
        ids[name] = await createDomain(tx, { name, crdate: "2021-01-01T00:00:00Z", exdate: "2030-01-01", registrant: holder, nsset: null });
    });
    ({ db: direct, drop } = created);
    const url = new URL(created.url as string);
    proxy = await tcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    console_ = await openDatabase({ databaseUrl: url.toString(), pgliteDir: "" });
  });
  afterAll(async () => {
    await console_?.close().catch(() => {});
    await proxy?.close();
    await drop?.();
  });

  const requests = async () => (await direct.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM object_state_request"))[0].n;

  it("tells people the database is unavailable, changes nothing half-way, and recovers without a restart", async () => {
    const operator = { ...(await signedInAs(direct, "operator")), db: console_ };
    expect((await actAs(operator, () => listObjects({}))).rows.length).toBeGreaterThan(0);
    const before = await requests();

    proxy.cut();
    // A page: the "database unavailable" page instead of an error.
    const read = await actAs(operator, () => listObjects({})).catch((error: unknown) => error);
    expect(isDatabaseUnavailable(read)).toBe(true);
    const page = await actAs(operator, () => forPage(() => listObjects({}))).catch((error: { digest?: string }) => error);
    expect((page as { digest?: string }).digest).toMatch(/^NEXT_REDIRECT;replace;\/unavailable;307;/);
    // A form: a clear message, nothing written.
    const key = randomUUID();
    const fields = { objectId: String(ids["one.cz"]), state: "serverTransferProhibited", reason: "during the outage", idempotencyKey: key };
    expect(await actAs(operator, () => createRequestAction(null, form(fields)))).toEqual({
      ok: false,
      code: "unavailable",
      error: english(msg("common.errors.unavailable")),
    });
    proxy.restore();
    expect(await requests()).toBe(before);

    // Back: the same pool reconnects; the same form, sent again, makes its request once.
    expect((await actAs(operator, () => listObjects({}))).rows.length).toBeGreaterThan(0);
    const sent = await actAs(operator, () => createRequestAction(null, form(fields)));
    expect(sent).toMatchObject({ ok: true, message: expect.stringMatching(/^Request \d+: serverTransferProhibited on one\.cz/) });
    expect(await actAs(operator, () => createRequestAction(null, form(fields)))).toMatchObject({ ok: true });
    expect(await requests()).toBe(before + 1);
  });

  it("leaves none of a bulk apply when the connection drops in the middle of it", async () => {
    const operator = { ...(await signedInAs(direct, "operator")), db: console_ };
    const before = await requests();
    const batchId = randomUUID();
    const fields = {
      names: "one.cz\ntwo.cz\nthree.cz",
      kind: "request",
      state: "serverRenewProhibited",
      reason: "bulk in an outage",
      batchId,
    };
    // Another session holds two.cz: the apply writes one.cz, then waits for two.cz's lock.
    let release = () => {};
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const held = direct.sql.transaction(async (tx) => {
      await tx.query("SELECT 1 FROM object_registry WHERE id = $1 FOR UPDATE", [ids["two.cz"]]);
      locked();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    // The lock is held before the apply starts (a fixed sleep could lose that race on a busy machine).
    await lockTaken;
    const apply = actAs(operator, () => bulkAction(null, form({ ...fields, apply: "1" })));
    for (let i = 0; i < 100; i++) {
      const [{ waiting }] = await direct.sql.query<{ waiting: number }>(
        "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      if (waiting > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(
      await direct.sql.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"),
    ).toHaveLength(1);
    proxy.cut();
    expect(await apply).toMatchObject({ ok: false, code: "unavailable" });
    release();
    await held;
    proxy.restore();
    // The server rolled the whole apply back: not one.cz's request either, and no audit row.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await requests()).toBe(before);
    const [{ audited }] = await direct.sql.query<{ audited: number }>(
      "SELECT count(*)::int AS audited FROM console.audit_log WHERE result = 'ok' AND input->>'batchId' = $1",
      [batchId],
    );
    expect(audited).toBe(0);
    // Sent again once the database is back: all three, once.
    expect(await actAs(operator, () => bulkAction(null, form({ ...fields, apply: "1" })))).toMatchObject({
      ok: true,
      data: { applied: true },
    });
    expect(await requests()).toBe(before + 3);
    expect((await checkDatabase(direct.sql)).checks.filter((c) => c.violations > 0)).toEqual([]);
  });
});
