import { cache } from "react";
import { audit } from "../audit/log";
import type { Database } from "../db/client";
import type { Message } from "../i18n/message";
import { logAnonymousRefusal } from "../log";
import { currentRequest, requestDatabase } from "./request-context";
import { type Permission, roleAllows } from "./roles";
import { secondFactorPolicy } from "./second-factor";
import { type Actor, validateSession } from "./sessions";

/**
 * A refused request: 401 without a valid session, 403 when the role may not do it. The message is
 * English (logs, tests); `text` is what toActionResult says in the request's language.
 */
export class AccessError extends Error {
  override name = "AccessError";
  constructor(
    readonly status: 401 | 403,
    readonly code: "unauthenticated" | "forbidden",
    message: string,
    readonly text: Message | string = message,
    /** Refused until the person sets up two-step sign-in (SECOND_FACTOR=admins). */
    readonly enrolFirst = false,
  ) {
    super(message);
  }
}

/**
 * The signed-in person of this request, checked against the database; null when there is none.
 * One session lookup per page render (React's request cache), however many reads the page makes;
 * server actions, routes and tests run outside a render and look the session up on every call.
 */
export const currentActor = cache(async (): Promise<Actor | null> => {
  const request = await currentRequest();
  if (!request.claims) return null;
  const db = await requestDatabase();
  const result = await validateSession(db.sql, request.claims.sid);
  if (!("actor" in result)) return null;
  return { ...result.actor, clientAddress: request.clientAddress };
});

/**
 * The signed-in person, looked up once per page render (React's request cache): for what a page
 * shows around its data — navigation, language. Reads and writes still pass authorize().
 */
export const renderingActor = cache(async (): Promise<Actor | null> => currentActor().catch(() => null));

/**
 * Whether the signed-in person's role allows `permission`: for what a page offers (a link, a
 * button). The action behind it passes authorize() all the same.
 */
export async function actorMay(permission: Permission): Promise<boolean> {
  const actor = await currentActor();
  return actor !== null && roleAllows(actor.role, permission);
}

/**
 * The gate of every read and write in the data-access layer: returns the actor when their role
 * has `permission`, and otherwise throws AccessError. A signed-in person's refusal is audited; one
 * of someone not signed in (no session, or one that has ended) is only logged, rate-limited
 * (lib/log.ts): anyone can send those, and an audit row each would let anyone grow the audit log
 * and queue every change behind the audit chain's lock.
 */
export async function authorize(permission: Permission, attempted: string): Promise<{ actor: Actor; db: Database }> {
  const db = await requestDatabase();
  const actor = await currentActor();
  if (!actor) {
    const request = await currentRequest();
    logAnonymousRefusal("access.denied", {
      code: request.claims ? "session_ended" : "unauthenticated",
      session: request.claims?.sid,
      attempted,
      permission,
      client: request.clientAddress,
    });
    throw new AccessError(401, "unauthenticated", "Sign in to use the console; your session may have ended.", {
      key: "common.errors.unauthenticated",
    });
  }
  // SECOND_FACTOR=admins: an administrator without two-step sign-in may only see to their own account.
  if (actor.role === "admin" && !actor.secondFactor && !permission.startsWith("self.") && secondFactorPolicy() === "admins") {
    throw new AccessError(
      403,
      "forbidden",
      "Set up two-step sign-in first: administrators need it here.",
      { key: "common.errors.secondFactorFirst" },
      true,
    );
  }
  if (!roleAllows(actor.role, permission)) {
    await audit(db.sql, { action: "access.denied", result: "refused", errorCode: "forbidden", actor, input: { attempted, permission } });
    throw new AccessError(403, "forbidden", `Your role (${actor.role}) may not do this.`, {
      key: "common.errors.forbidden",
      values: { role: { key: `common.roles.${actor.role}` } },
    });
  }
  return { actor, db };
}
