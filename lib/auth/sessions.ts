import { randomUUID } from "node:crypto";
import type { ConsoleExecutor } from "../db/driver";
import { isLocale, type Locale } from "../i18n/config";
import { isRole, type Role } from "./roles";

export const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const ABSOLUTE_LIFETIME_MS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reading pages does not write on every request. */
const TOUCH_INTERVAL_MS = 60 * 1000;

/** A person acting through a valid session. */
export interface Actor {
  userId: number;
  username: string;
  role: Role;
  sessionId: string | null;
  clientAddress: string | null;
  /** The language the person chose in the console; null or absent: not chosen, the browser's decides. */
  locale?: Locale | null;
  /** Whether the person has two-step sign-in on (SECOND_FACTOR=admins requires it of administrators). */
  secondFactor?: boolean;
}

export type SessionEnd = "signed_out" | "idle" | "expired" | "disabled" | "revoked";

export async function openSession(
  db: ConsoleExecutor,
  userId: number,
  info: { clientAddress: string | null; userAgent: string | null },
): Promise<string> {
  const id = randomUUID();
  const user = await db.prisma.user.findUnique({ where: { id: userId }, select: { sessionVersion: true } });
  if (user) {
    await db.prisma.session.create({
      data: {
        id,
        userId,
        sessionVersion: user.sessionVersion,
        clientAddress: info.clientAddress,
        userAgent: info.userAgent?.slice(0, 400),
      },
    });
  }
  return id;
}

/**
 * The actor behind a session, or why there is none. The database decides, not the cookie: a user
 * disabled, re-roled or signed out elsewhere loses access on the very next request.
 */
export async function validateSession(
  db: ConsoleExecutor,
  sessionId: string,
  now: Date = new Date(),
): Promise<{ actor: Omit<Actor, "clientAddress"> } | { ended: SessionEnd | "unknown" }> {
  const row = await db.prisma.session.findUnique({
    where: { id: sessionId },
    include: {
      user: {
        select: {
          username: true,
          role: true,
          disabledAt: true,
          sessionVersion: true,
          locale: true,
          secondFactor: { select: { confirmedAt: true } },
          _count: { select: { securityKeys: true } },
        },
      },
    },
  });
  if (!row) return { ended: "unknown" };
  if (row.endedAt) return { ended: "signed_out" };
  const end: SessionEnd | null = row.user.disabledAt
    ? "disabled"
    : row.sessionVersion !== row.user.sessionVersion
      ? "revoked"
      : now.getTime() - row.createdAt.getTime() >= ABSOLUTE_LIFETIME_MS
        ? "expired"
        : now.getTime() - row.lastSeenAt.getTime() >= IDLE_TIMEOUT_MS
          ? "idle"
          : null;
  if (end) {
    await endSession(db, sessionId, end, now);
    return { ended: end };
  }
  if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    await db.prisma.session.update({ where: { id: sessionId }, data: { lastSeenAt: now }, select: { id: true } });
  }
  if (!isRole(row.user.role)) return { ended: "revoked" };
  return {
    actor: {
      userId: row.userId,
      username: row.user.username,
      role: row.user.role,
      sessionId: row.id,
      locale: isLocale(row.user.locale) ? row.user.locale : null,
      secondFactor: Boolean(row.user.secondFactor?.confirmedAt) || row.user._count.securityKeys > 0,
    },
  };
}

export async function endSession(db: ConsoleExecutor, sessionId: string, reason: SessionEnd, now: Date = new Date()): Promise<void> {
  await db.prisma.session.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: now, endReason: reason } });
}
