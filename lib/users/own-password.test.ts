import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeOwnPasswordAction } from "../../app/preferences/actions";
import { testBackends } from "../../testing/databases";
import { actAs, anonymous, signedInAs, TEST_CLIENT } from "../../testing/sessions";
import { currentActor } from "../auth/guard";
import type { RequestContext } from "../auth/request-context";
import { openSession } from "../auth/sessions";
import { signInWithPassword } from "../auth/sign-in";
import { SIGN_IN_LIMITS } from "../auth/throttle";
import type { Database } from "../db/client";
import { changeOwnPassword } from "./own-password";
import { insertUser } from "./store";

const OLD = "my first long passphrase";
const NEW = "violet harbour lantern 1987";

describe.each(testBackends())("changing one's own password on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
  });
  afterAll(() => drop());

  /** A person with a password, signed in from `sessions` browsers; the first one acts. */
  async function person(username: string, sessions = 1): Promise<RequestContext[]> {
    const uid = await insertUser(db.sql, { username, role: "support", password: OLD });
    const contexts: RequestContext[] = [];
    for (let i = 0; i < sessions; i++) {
      const sid = await openSession(db.sql, uid, TEST_CLIENT);
      contexts.push({ claims: { sid, uid }, ...TEST_CLIENT, db });
    }
    return contexts;
  }
  const hashOf = async (username: string) =>
    (await db.sql.query<{ password_hash: string }>("SELECT password_hash FROM console.users WHERE username = $1", [username]))[0]
      .password_hash;
  const audits = (username: string) =>
    db.sql.query<{ result: string; error_code: string | null; input: Record<string, unknown>; session_id: string | null }>(
      "SELECT result, error_code, input, session_id FROM console.audit_log WHERE action = 'user.change_own_password' AND actor = $1 ORDER BY id",
      [username],
    );
  const change = (context: RequestContext, currentPassword: string, newPassword: string, confirmPassword = newPassword) =>
    actAs(context, () => changeOwnPassword({ currentPassword, newPassword, confirmPassword }));

  it("needs the current password: a wrong one changes nothing and is audited", async () => {
    const [me, other] = await person("kate", 2);
    const before = await hashOf("kate");
    await expect(change(me, "not my password at all", NEW)).rejects.toThrow("The current password is wrong; nothing was changed.");
    expect(await hashOf("kate")).toBe(before);
    expect(await actAs(other, currentActor)).toMatchObject({ username: "kate" });
    expect((await audits("kate")).at(-1)).toMatchObject({ result: "refused", error_code: "wrong_password" });
    // The wrong guess counts against the guessing limits like a failed sign-in.
    const [{ failures }] = await db.sql.query<{ failures: number }>(
      "SELECT count(*)::int AS failures FROM console.sign_in_failures WHERE username = 'kate'",
    );
    expect(failures).toBe(1);
  });

  it("changes it, ends the person's other sessions but not this one, and audits it", async () => {
    const [me, laptop, phone] = await person("liam", 3);
    const result = await change(me, OLD, NEW);
    expect(result.message).toEqual({ key: "users.ownPasswordChanged", values: { count: 2 } });
    expect(await actAs(me, currentActor)).toMatchObject({ username: "liam" });
    expect(await actAs(laptop, currentActor)).toBeNull();
    expect(await actAs(phone, currentActor)).toBeNull();
    expect((await audits("liam")).at(-1)).toMatchObject({
      result: "ok",
      error_code: null,
      session_id: me.claims?.sid,
      input: { userId: me.claims?.uid, otherSessionsEnded: 2 },
    });
    expect(await signInWithPassword(db.sql, "liam", OLD, TEST_CLIENT)).toEqual({ ok: false, reason: "invalid" });
    expect(await signInWithPassword(db.sql, "liam", NEW, TEST_CLIENT)).toMatchObject({ ok: true });
    expect(await hashOf("liam")).toMatch(/^rsc2:/);
  });

  it("refuses common passwords and other weak ones with a clear message, in the person's language", async () => {
    const [me] = await person("mia");
    const before = await hashOf("mia");
    for (const weak of ["password1234", "Password123!", "qwerty123456", "mia2024mia2024"]) {
      await expect(change(me, OLD, weak)).rejects.toThrow(/^This password is (on the list of common and breached passwords|too easy)/);
    }
    const form = new FormData();
    form.set("currentPassword", OLD);
    form.set("newPassword", "password1234");
    form.set("confirmPassword", "password1234");
    expect(await actAs(me, () => changeOwnPasswordAction(null, form))).toMatchObject({
      ok: false,
      code: "invalid",
      error: expect.stringMatching(/^This password is on the list of common and breached passwords/),
      fieldErrors: { newPassword: [expect.stringMatching(/common and breached/)] },
    });
    expect(await actAs({ ...me, locale: "cs" }, () => changeOwnPasswordAction(null, form))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Toto heslo je na seznamu běžných a uniklých hesel/),
    });
    await expect(change(me, OLD, "short")).rejects.toThrow("Passwords have at least 12 characters.");
    await expect(change(me, OLD, NEW, `${NEW}!`)).rejects.toThrow(/two new passwords differ/);
    await expect(change(me, OLD, OLD)).rejects.toThrow(/same as the current one/);
    expect(await hashOf("mia")).toBe(before);
    expect((await audits("mia")).every((row) => row.result === "refused")).toBe(true);
  });

  it("asks to wait, without checking, once the guessing limits are reached", async () => {
    const [me] = await person("noah");
    // Ten wrong passwords from this address just now (each check takes a second: recorded directly).
    await db.sql.query("INSERT INTO console.sign_in_failures (username, client_address) SELECT 'noah', $1 FROM generate_series(1, $2)", [
      TEST_CLIENT.clientAddress,
      SIGN_IN_LIMITS.pair.free + 5,
    ]);
    await expect(change(me, OLD, NEW)).rejects.toThrow(/^Too many wrong passwords for your account from this address. Wait 3\d seconds/);
    expect((await audits("noah")).at(-1)).toMatchObject({ result: "refused", error_code: "throttled" });
  });

  it("has nothing to change for a person who signs in through single sign-on", async () => {
    const sso = await signedInAs(db, "support", "olga");
    await expect(change(sso, "anything at all", NEW)).rejects.toThrow(/single sign-on/);
  });

  it("needs a session", async () => {
    await expect(change(anonymous(db), OLD, NEW)).rejects.toMatchObject({ status: 401 });
  });
});
