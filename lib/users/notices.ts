import "server-only";
import { render } from "../actions/message";
import { authorize } from "../auth/guard";
import { requestDatabase } from "../auth/request-context";
import { type Locale, localeOrDefault } from "../i18n/config";
import { msg } from "../i18n/message";
import { inBackground, mailConfigured, sendMail } from "../mail";
import { type ChangedBy, NOTICE_KINDS, type NoticeKind } from "./notice-store";

export { type ChangedBy, type NoticeKind, recordNotice } from "./notice-store";

// Changes to how a person signs in are told to them (ASVS 2.2.3): each is kept in
// console.account_notices (lib/users/notice-store.ts), shown once on the first page of the person's
// next session (a session opened after the change: someone who changed it with a stolen session
// cannot hide it), and, when the person has an e-mail address and SMTP is configured, mailed at once.

/** A notice as the person reads it. */
export interface AccountNotice {
  kind: NoticeKind;
  at: Date;
  byUsername: string | null;
  clientAddress: string | null;
}

const isKind = (kind: string): kind is NoticeKind => (NOTICE_KINDS as readonly string[]).includes(kind);

/** One notice as a line in `locale`: what changed, when, from where and by whom. */
export function noticeText(notice: AccountNotice, locale: Locale, username: string): string {
  const parts = [render(msg("notices.line", { when: notice.at, what: msg(`notices.kinds.${notice.kind}`) }), locale)];
  if (notice.clientAddress) parts.push(render(msg("notices.from", { address: notice.clientAddress }), locale));
  if (notice.byUsername && notice.byUsername !== username) parts.push(render(msg("notices.by", { username: notice.byUsername }), locale));
  return parts.join(" ");
}

/**
 * Mails the notice of a change just committed to the person's e-mail address, in their language.
 * In the background: a failure is logged and never undoes or holds up the change.
 */
export function mailNotice(userId: number, kind: NoticeKind, by: ChangedBy, alsoTo?: string, at = new Date()): void {
  if (!mailConfigured()) return;
  inBackground(async () => {
    const db = await requestDatabase();
    const user = await db.prisma.user.findUnique({ where: { id: userId }, select: { username: true, email: true, locale: true } });
    if (!user) return;
    const locale = localeOrDefault(user.locale);
    const line = noticeText({ kind, at, byUsername: by.username, clientAddress: by.clientAddress ?? null }, locale, user.username);
    for (const to of new Set([user.email, alsoTo].filter((address): address is string => Boolean(address)))) {
      await sendMail({
        to,
        subject: render(msg("notices.mailSubject"), locale),
        text: render(msg("notices.mailText", { username: user.username, line }), locale),
      });
    }
  }, `the notice of ${kind} to user ${userId} was not mailed`);
}

/**
 * The sessions of this process whose notices were taken. A session's notices are those made before
 * it was opened, so once taken none can come later: its further pages skip the write (every page
 * made one). Another process takes them again once, and finds none. Forgotten all at once when
 * full, which costs each session one more write.
 */
const TAKEN = Symbol.for("registry-state-console.notices-taken");
const shared = globalThis as Record<symbol, Set<string> | undefined>;
shared[TAKEN] ??= new Set<string>();
const taken = shared[TAKEN];
const TAKEN_MAX = 10_000;

/**
 * The notices of changes made before the signed-in person's session was opened and not shown yet;
 * they are marked shown (the first page of a new session shows them, once).
 */
export async function takeOwnNotices(): Promise<AccountNotice[]> {
  const { actor, db } = await authorize("self.preferences", "account.notices");
  if (!actor.sessionId || taken.has(actor.sessionId)) return [];
  const rows = await db.sql.query<{ kind: string; created_at: Date; by_username: string | null; client_address: string | null }>(
    `UPDATE console.account_notices n SET shown_at = now()
       FROM console.sessions s
      WHERE s.id = $2 AND n.user_id = $1 AND n.shown_at IS NULL AND n.created_at < s.created_at
      RETURNING n.kind, n.created_at, n.by_username, n.client_address`,
    [actor.userId, actor.sessionId],
  );
  if (taken.size >= TAKEN_MAX) taken.clear();
  taken.add(actor.sessionId);
  return rows
    .flatMap((row) =>
      isKind(row.kind)
        ? [{ kind: row.kind, at: new Date(row.created_at), byUsername: row.by_username, clientAddress: row.client_address }]
        : [],
    )
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}
