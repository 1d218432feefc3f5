import "server-only";
import { createHash } from "node:crypto";
import * as z from "zod";
import { auditedChange } from "../actions/change";
import { InputError } from "../actions/result";
import { authorize } from "../auth/guard";
import { ABSOLUTE_LIFETIME_MS, endSession, IDLE_TIMEOUT_MS } from "../auth/sessions";
import { type Message, msg } from "../i18n/message";

/**
 * The signed-in person's own sessions (ASVS 3.3.4): where (the client's address), when (opened,
 * last seen) and which browser, and ending any of them. A session is named on the page by a hash
 * of its id, never by the id itself, and only the person's own sessions are found by it.
 */
export interface OwnSession {
  /** What the page sends back to end it: a hash of the session's id. */
  handle: string;
  clientAddress: string | null;
  browser: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

/** How the page names a session: a hash of its id. */
export const sessionHandle = (sessionId: string) => createHash("sha256").update(`session:${sessionId}`).digest("base64url").slice(0, 22);

// The first that matches names the browser (Edge and Opera also say Chrome, Chrome also says Safari).
const BROWSERS: [string, RegExp][] = [
  ["Edge", /Edg\/(\d+)/],
  ["Opera", /OPR\/(\d+)/],
  ["Firefox", /Firefox\/(\d+)/],
  ["Chrome", /(?:HeadlessChrome|Chromium|Chrome)\/(\d+)/],
  ["Safari", /Version\/(\d+)[^ ]* .*Safari\//],
  ["curl", /^curl\/(\d+)/],
];
const SYSTEMS: [string, RegExp][] = [
  ["Windows", /Windows/],
  ["iOS", /iPhone|iPad/],
  ["Android", /Android/],
  ["macOS", /Macintosh|Mac OS X/],
  ["Linux", /Linux|X11/],
];

/** A short name of the browser and system a User-Agent header names: "Firefox 128 (Linux)"; else its start. */
export function browserSummary(userAgent: string | null): string {
  if (!userAgent) return "?";
  const browser = BROWSERS.map(([name, pattern]) => [name, pattern.exec(userAgent)?.[1]] as const).find(([, version]) => version);
  if (!browser) return userAgent.slice(0, 60);
  const system = SYSTEMS.find(([, pattern]) => pattern.test(userAgent))?.[0];
  return `${browser[0]} ${browser[1]}${system ? ` (${system})` : ""}`;
}

/** The person's sessions that are open now: not ended, not past their idle or absolute limit, not revoked. */
export async function ownSessions(now = new Date()): Promise<OwnSession[]> {
  const { actor, db } = await authorize("self.password", "sessions.read");
  const user = await db.prisma.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { sessionVersion: true } });
  const rows = await db.prisma.session.findMany({
    where: {
      userId: actor.userId,
      endedAt: null,
      sessionVersion: user.sessionVersion,
      createdAt: { gt: new Date(now.getTime() - ABSOLUTE_LIFETIME_MS) },
      lastSeenAt: { gt: new Date(now.getTime() - IDLE_TIMEOUT_MS) },
    },
    orderBy: { lastSeenAt: "desc" },
    select: { id: true, clientAddress: true, userAgent: true, createdAt: true, lastSeenAt: true },
  });
  return rows.map((row) => ({
    handle: sessionHandle(row.id),
    clientAddress: row.clientAddress,
    browser: browserSummary(row.userAgent),
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.id === actor.sessionId,
  }));
}

// Anything but a handle of one of the person's own open sessions is "not one of yours".
const endSchema = z.object({ session: z.string().max(64).catch("") });

/** Ends one of the person's own sessions (this one too: then they are signed out). Another person's cannot be named. */
export function endOwnSession(input: unknown): Promise<{ message: Message }> {
  return auditedChange("self.password", "user.session.end", endSchema, input, async (tx, data, actor) => {
    // Only the person's own open sessions are candidates: a handle of anyone else's finds nothing.
    const open = await tx.prisma.session.findMany({ where: { userId: actor.userId, endedAt: null }, select: { id: true } });
    const target = open.find((session) => data.session !== "" && sessionHandle(session.id) === data.session);
    if (!target) throw new InputError(msg("users.sessionUnknown"));
    await endSession(tx, target.id, "revoked");
    return {
      result: { message: msg("users.sessionEnded") },
      audit: { input: { userId: actor.userId, session: data.session, current: target.id === actor.sessionId } },
    };
  });
}
