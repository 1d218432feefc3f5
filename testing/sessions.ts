import { randomBytes } from "node:crypto";
import { type RequestContext, runWithRequest } from "../lib/auth/request-context";
import type { Role } from "../lib/auth/roles";
import { openSession } from "../lib/auth/sessions";
import type { Database } from "../lib/db/client";
import { insertUser } from "../lib/users/store";

export const TEST_CLIENT = { clientAddress: "198.51.100.7", userAgent: "vitest" };

/** A new user with the role, signed in: the request context of their browser. */
export async function signedInAs(
  db: Database,
  role: Role,
  username = `${role}-${randomBytes(3).toString("hex")}`,
): Promise<RequestContext> {
  const uid = await insertUser(db.sql, { username, role, password: null });
  const sid = await openSession(db.sql, uid, TEST_CLIENT);
  return { claims: { sid, uid }, ...TEST_CLIENT, db };
}

/** A request without a session cookie. */
export function anonymous(db: Database): RequestContext {
  return { claims: null, ...TEST_CLIENT, db };
}

export function actAs<T>(context: RequestContext, work: () => Promise<T>): Promise<T> {
  return runWithRequest(context, work);
}
