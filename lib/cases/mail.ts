import "server-only";
import { render } from "../actions/message";
import { restoredMessage } from "../audit/said";
import type { SqlExecutor } from "../db/driver";
import { localeOrDefault } from "../i18n/config";
import { msg } from "../i18n/message";
import { inBackground, mailConfigured, sendMail } from "../mail";
import { registryToday } from "./cases";

// Mail where a person must act (issue 42): the people who may approve a change hear that it waits.
// Sent after the change committed, in the background, in each recipient's language; without SMTP
// settings nothing is sent and the console works as before (lib/mail.ts).

/** The console's address for links in mail: NEXTAUTH_URL when set (the public URL), else none. */
const publicUrl = () => (process.env.NEXTAUTH_URL ?? "").replace(/\/+$/, "");

/**
 * Tells everyone who may approve the pending changes `ids` (operators and administrators with an
 * e-mail address, not disabled, never their proposer) that they wait, in one mail per person.
 */
export function mailApprovers(db: SqlExecutor, ids: number[]): void {
  if (ids.length === 0 || !mailConfigured()) return;
  inBackground(async () => {
    const changes = await db.query<{
      id: number;
      object: string;
      summary: unknown;
      proposed_by: string;
      proposed_by_id: number;
      case_id: number | null;
    }>(
      `SELECT p.id, o.name AS object, p.summary, p.proposed_by, p.proposed_by_id, p.case_id
         FROM console.pending_changes p JOIN object_registry o ON o.id = p.object_id WHERE p.id = ANY ($1::int[]) AND p.status = 'pending'
        ORDER BY p.id`,
      [ids],
    );
    if (changes.length === 0) return;
    const proposers = [...new Set(changes.map((c) => c.proposed_by_id))];
    const approvers = await db.query<{ username: string; email: string; locale: string | null }>(
      `SELECT username, email, locale FROM console.users
        WHERE role IN ('operator', 'admin') AND disabled_at IS NULL AND email IS NOT NULL AND NOT (id = ANY ($1::int[]))
        ORDER BY id`,
      [proposers],
    );
    const count = changes.length;
    for (const approver of approvers) {
      const locale = localeOrDefault(approver.locale);
      const lines = changes.map((c) =>
        render(
          msg("caseMail.line", {
            id: String(c.id),
            caseId: c.case_id ? String(c.case_id) : "none",
            by: c.proposed_by,
            summary: restoredMessage(c.summary) ?? String(c.summary),
          }),
          locale,
        ),
      );
      const link = publicUrl() ? `${publicUrl()}/approvals` : render(msg("caseMail.approvalsPage"), locale);
      await sendMail({
        to: approver.email,
        subject: render(msg("caseMail.waitingSubject", { count, id: String(changes[0].id) }), locale),
        text: render(msg("caseMail.waitingText", { username: approver.username, count, lines: lines.join("\n"), link }), locale),
      });
    }
  }, "mail to approvers");
}

/** How often the console looks for reviews coming and changes waiting long. */
const REMINDERS_EVERY_MS = 15 * 60_000;

/**
 * Reminders (issue 42): a case's owner hears the day before its review date (once per date), and
 * the people who may approve hear again of changes that have waited a day since they were last told.
 * Each is marked in the same statement that finds it, so two console processes do not both mail.
 */
export async function sendReminders(db: SqlExecutor, today: string): Promise<{ owners: number; waiting: number }> {
  if (!mailConfigured()) return { owners: 0, waiting: 0 };
  const due = await db.query<{
    id: number;
    reference: string;
    review_by: string;
    username: string;
    email: string | null;
    locale: string | null;
  }>(
    `UPDATE console.cases c SET review_mailed_for = c.review_by
       FROM console.users u
      WHERE u.id = c.owner_id AND c.status = 'open' AND c.review_by <= $1::date + 1
        AND c.review_mailed_for IS DISTINCT FROM c.review_by
     RETURNING c.id, c.reference, c.review_by::text, u.username, u.email, u.locale`,
    [today],
  );
  for (const c of due)
    if (c.email) {
      const locale = localeOrDefault(c.locale);
      const facts = { id: String(c.id), reference: c.reference, day: c.review_by };
      inBackground(
        () =>
          sendMail({
            to: c.email as string,
            subject: render(msg("caseMail.reviewSubject", facts), locale),
            text: render(
              msg("caseMail.reviewText", { ...facts, username: c.username, link: publicUrl() ? `${publicUrl()}/cases/${c.id}` : "none" }),
              locale,
            ),
          }).then(() => {}),
        "mail to a case's owner",
      );
    }
  const waiting = await db.query<{ id: number }>(
    `UPDATE console.pending_changes SET mailed_at = now()
      WHERE status = 'pending' AND coalesce(mailed_at, proposed_at) < now() - interval '1 day' RETURNING id`,
  );
  mailApprovers(
    db,
    waiting.map((p) => p.id),
  );
  return { owners: due.filter((c) => c.email).length, waiting: waiting.length };
}

/** Sends the reminders now and every REMINDERS_EVERY_MS in the console process; a failure is logged and tried again. */
export function startCaseReminders(database: () => Promise<SqlExecutor>): { stop(): void } {
  const tick = async () => {
    try {
      await sendReminders(await database(), registryToday());
    } catch (error) {
      console.warn(`case reminders failed, the next tick tries again: ${(error as Error).message}`);
    }
  };
  void tick();
  const timer = setInterval(tick, REMINDERS_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
