import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { actAs, signedInAs } from "../../testing/sessions";
import type { RequestContext } from "../auth/request-context";
import type { Database } from "../db/client";
import { allowAccountLink, createUser, disableUser, setUserPassword, setUserRole } from "./admin";

describe.each(testBackends())("user administration rules on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let admin: RequestContext;

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    admin = await signedInAs(db, "admin", "root-admin");
  });
  afterAll(() => drop());

  const snapshot = () => db.sql.query("SELECT * FROM console.users ORDER BY id");
  const lastAudit = async () =>
    (
      await db.sql.query<{ action: string; result: string; error_code: string | null }>(
        "SELECT action, result, error_code FROM console.audit_log ORDER BY id DESC LIMIT 1",
      )
    )[0];

  async function refused(work: () => Promise<unknown>, message: RegExp, action: string) {
    const before = await snapshot();
    await expect(actAs(admin, work)).rejects.toThrow(message);
    expect(await snapshot()).toEqual(before);
    expect(await lastAudit()).toEqual({ action, result: "refused", error_code: "invalid" });
  }

  it("refuses bad input with a message per field, changes nothing and audits the refusal", async () => {
    await refused(
      () => createUser({ username: "x", role: "support", password: "a long enough password" }),
      /User names have 2–64 characters/,
      "user.create",
    );
    await refused(() => createUser({ username: "eve", role: "root", password: "a long enough password" }), /Choose a role/, "user.create");
    await refused(() => createUser({ username: "eve", role: "support", password: "short" }), /at least 12 characters/, "user.create");
    await actAs(admin, () => createUser({ username: "Eve", role: "support", password: "a long enough password" }));
    await refused(() => createUser({ username: "eve", role: "admin", password: "a long enough password" }), /eve is taken/, "user.create");
  });

  it("refuses common and guessable passwords, however an admin sets them", async () => {
    for (const password of ["password1234", "Password123!", "qwerty123456"]) {
      await refused(
        () => createUser({ username: "fred", role: "support", password }),
        /^This password is on the list of common and breached passwords/,
        "user.create",
      );
    }
    await refused(
      () => createUser({ username: "petra.novak", displayName: "Petra Novák", role: "support", password: "petra.novak2026" }),
      /too easy to guess: it is built on the user name/,
      "user.create",
    );
    await actAs(admin, () => createUser({ username: "fred", role: "support", password: "a long enough password" }));
    const [{ id }] = await db.sql.query<{ id: number }>("SELECT id FROM console.users WHERE username = 'fred'");
    await refused(() => setUserPassword({ userId: id, password: "password1234" }), /common and breached passwords/, "user.set_password");
    await refused(() => setUserPassword({ userId: id, password: "fred-fred-fred-1" }), /too easy to guess/, "user.set_password");
  });

  it("never leaves the console without an active admin, and an admin cannot disable themselves", async () => {
    const adminId = admin.claims?.uid as number;
    await refused(() => setUserRole({ userId: adminId, role: "support" }), /last active admin/, "user.set_role");
    await refused(() => disableUser({ userId: adminId }), /cannot disable your own account/, "user.disable");
    await refused(() => disableUser({ userId: 999_999 }), /no user with id 999999/, "user.disable");
  });

  it("allows linking an account at its next single sign-on or directory sign-in for 7 days, and withdraws it; bad input changes nothing", async () => {
    const adminId = admin.claims?.uid as number;
    await refused(() => allowAccountLink({ userId: 999_999 }), /no user with id 999999/, "user.allow_link");
    await refused(() => allowAccountLink({ userId: adminId, allow: "maybe" }), /Choose whether to allow linking/, "user.allow_link");
    const before = Date.now();
    await actAs(admin, () => allowAccountLink({ userId: adminId }));
    const until = (await db.prisma.user.findUniqueOrThrow({ where: { id: adminId } })).linkAllowedUntil?.getTime() ?? 0;
    expect(until - before).toBeGreaterThanOrEqual(7 * 86_400_000);
    expect(until - before).toBeLessThan(7 * 86_400_000 + 60_000);
    expect(await lastAudit()).toEqual({ action: "user.allow_link", result: "ok", error_code: null });
    await actAs(admin, () => allowAccountLink({ userId: adminId, allow: "off" }));
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: adminId } })).linkAllowedUntil).toBeNull();
  });
});
