import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { migrate } from "../db/migrations";
import { testBackends } from "../testing/databases";
import { TEST_CLIENT } from "../testing/sessions";
import { insertUser, updateUser } from "../users/store";
import { ABSOLUTE_LIFETIME_MS, IDLE_TIMEOUT_MS } from "./sessions";
import { MAX_FAILURES_PER_MINUTE, signInWithPassword } from "./sign-in";

const PASSWORD = "a long enough password";

describe.each(testBackends())("password sign-in on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await backend.create());
    await migrate(db.sql);
    await insertUser(db.sql, { username: "alice", role: "operator", password: PASSWORD });
  });
  afterAll(() => drop());

  const auditRows = (username: string) =>
    db.sql.query<{ result: string; error_code: string | null; session_id: string | null; client_address: string }>(
      "SELECT result, error_code, session_id, client_address FROM console.audit_log WHERE action = 'auth.sign_in' AND actor = $1 ORDER BY id",
      [username],
    );

  it("signs in with the right password, opens a session and audits it", async () => {
    const result = await signInWithPassword(db.sql, "  Alice ", PASSWORD, TEST_CLIENT);
    expect(result).toMatchObject({ ok: true, user: { username: "alice", role: "operator" } });
    const [row] = (await auditRows("alice")).slice(-1);
    expect(row).toMatchObject({ result: "ok", client_address: TEST_CLIENT.clientAddress });
    expect(row.session_id).toBe(result.ok ? result.user.sessionId : null);
  });

  it("gives the same answer for a wrong password and an unknown account, and audits the difference", async () => {
    expect(await signInWithPassword(db.sql, "alice", "wrong password!!", TEST_CLIENT)).toEqual({ ok: false, reason: "invalid" });
    expect(await signInWithPassword(db.sql, "nobody", "wrong password!!", TEST_CLIENT)).toEqual({ ok: false, reason: "invalid" });
    expect((await auditRows("alice")).at(-1)).toMatchObject({ result: "refused", error_code: "wrong_password" });
    expect((await auditRows("nobody")).at(-1)).toMatchObject({ result: "refused", error_code: "unknown_user" });
  });

  it("refuses a disabled account even with the right password", async () => {
    const id = await insertUser(db.sql, { username: "dora", role: "support", password: PASSWORD });
    await updateUser(db.sql, id, { disabled: true });
    expect(await signInWithPassword(db.sql, "dora", PASSWORD, TEST_CLIENT)).toEqual({ ok: false, reason: "invalid" });
    expect((await auditRows("dora")).at(-1)).toMatchObject({ error_code: "disabled" });
  });

  it(`throttles an account after ${MAX_FAILURES_PER_MINUTE} failures a minute, existing or not, until the minute has passed`, async () => {
    await insertUser(db.sql, { username: "bob", role: "support", password: PASSWORD });
    for (const username of ["bob", "ghost"]) {
      for (let i = 0; i < MAX_FAILURES_PER_MINUTE; i++) {
        expect(await signInWithPassword(db.sql, username, `guess number ${i}`, TEST_CLIENT)).toEqual({ ok: false, reason: "invalid" });
      }
      expect(await signInWithPassword(db.sql, username, PASSWORD, TEST_CLIENT)).toEqual({ ok: false, reason: "throttled" });
      expect((await auditRows(username)).at(-1)).toMatchObject({ result: "refused", error_code: "throttled" });
    }
    // other accounts are not affected
    expect(await signInWithPassword(db.sql, "alice", PASSWORD, TEST_CLIENT)).toMatchObject({ ok: true });
    // a minute later the account may try again
    await db.sql.query("UPDATE console.sign_in_failures SET at = at - interval '61 seconds' WHERE username = 'bob'");
    expect(await signInWithPassword(db.sql, "bob", PASSWORD, TEST_CLIENT)).toMatchObject({ ok: true });
  });

  it("lets no more than the limit through when the guesses come in parallel", async () => {
    const guesses = await Promise.all(
      Array.from({ length: 2 * MAX_FAILURES_PER_MINUTE }, (_, i) =>
        signInWithPassword(db.sql, "carol", `parallel guess ${i}`, TEST_CLIENT),
      ),
    );
    expect(guesses.filter((g) => !g.ok && g.reason === "invalid")).toHaveLength(MAX_FAILURES_PER_MINUTE);
    expect(guesses.filter((g) => !g.ok && g.reason === "throttled")).toHaveLength(MAX_FAILURES_PER_MINUTE);
  });

  it("keeps the limits the issue sets: 10 failures a minute, 30 minutes idle, 12 hours in all", () => {
    expect(MAX_FAILURES_PER_MINUTE).toBe(10);
    expect(IDLE_TIMEOUT_MS).toBe(30 * 60 * 1000);
    expect(ABSOLUTE_LIFETIME_MS).toBe(12 * 60 * 60 * 1000);
  });
});
