import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { actAs, signedInAs } from "../../testing/sessions";
import type { Database } from "../db/client";
import { disableUser, forceSignOut, setUserRole } from "../users/admin";
import { currentActor } from "./guard";
import type { RequestContext } from "./request-context";
import { ABSOLUTE_LIFETIME_MS, IDLE_TIMEOUT_MS, validateSession } from "./sessions";

const MINUTE = 60_000;

describe.each(testBackends())("sessions on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let admin: RequestContext;

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    admin = await signedInAs(db, "admin");
  });
  afterAll(() => drop());

  const sid = (context: RequestContext) => context.claims?.sid as string;
  const uid = (context: RequestContext) => context.claims?.uid as number;
  const endReason = async (context: RequestContext) =>
    (await db.sql.query<{ end_reason: string | null }>("SELECT end_reason FROM console.sessions WHERE id = $1", [sid(context)]))[0]
      .end_reason;

  it("ends a session after 30 minutes without a request, and not before", async () => {
    const support = await signedInAs(db, "support");
    const opened = (await db.sql.query<{ at: Date }>("SELECT last_seen_at AS at FROM console.sessions WHERE id = $1", [sid(support)]))[0]
      .at;
    const almost = new Date(opened.getTime() + IDLE_TIMEOUT_MS - MINUTE);
    expect(await validateSession(db.sql, sid(support), almost)).toHaveProperty("actor");
    // that request counted as activity: idle time starts again from it
    const later = new Date(almost.getTime() + IDLE_TIMEOUT_MS - MINUTE);
    expect(await validateSession(db.sql, sid(support), later)).toHaveProperty("actor");
    const idle = new Date(later.getTime() + IDLE_TIMEOUT_MS);
    expect(await validateSession(db.sql, sid(support), idle)).toEqual({ ended: "idle" });
    expect(await endReason(support)).toBe("idle");
    // and it stays ended even if the clock were to go back
    expect(await validateSession(db.sql, sid(support), almost)).toEqual({ ended: "signed_out" });
  });

  it("ends a session 12 hours after sign-in however active it is", async () => {
    const operator = await signedInAs(db, "operator");
    const opened = (await db.sql.query<{ at: Date }>("SELECT created_at AS at FROM console.sessions WHERE id = $1", [sid(operator)]))[0].at;
    for (let t = 20 * MINUTE; t < ABSOLUTE_LIFETIME_MS; t += 20 * MINUTE) {
      expect(await validateSession(db.sql, sid(operator), new Date(opened.getTime() + t))).toHaveProperty("actor");
    }
    expect(await validateSession(db.sql, sid(operator), new Date(opened.getTime() + ABSOLUTE_LIFETIME_MS))).toEqual({ ended: "expired" });
  });

  it("locks a disabled user out on their very next request", async () => {
    const support = await signedInAs(db, "support");
    expect(await actAs(support, currentActor)).toMatchObject({ userId: uid(support), role: "support" });
    await actAs(admin, () => disableUser({ userId: uid(support) }));
    expect(await actAs(support, currentActor)).toBeNull();
    expect(await endReason(support)).toBe("revoked");
  });

  it("ends the sessions of a user whose role changed, or whom an admin signed out everywhere", async () => {
    const operator = await signedInAs(db, "operator");
    await actAs(admin, () => setUserRole({ userId: uid(operator), role: "support" }));
    expect(await actAs(operator, currentActor)).toBeNull();

    const other = await signedInAs(db, "support");
    await actAs(admin, () => forceSignOut({ userId: uid(other) }));
    expect(await actAs(other, currentActor)).toBeNull();
  });

  it("does not accept a session id it never issued", async () => {
    const forged: RequestContext = { ...admin, claims: { sid: "00000000-0000-4000-8000-000000000000", uid: uid(admin) } };
    expect(await actAs(forged, currentActor)).toBeNull();
  });
});
