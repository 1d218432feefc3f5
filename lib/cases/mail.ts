import "server-only";
import { english } from "../actions/message";
import { restoredMessage } from "../audit/said";
import type { SqlExecutor } from "../db/driver";
import { inBackground, mailConfigured, sendMail } from "../mail";

// Mail where a person must act (issue 42): the people who may approve a change hear that it waits.
// Sent after the change committed, in the background; without SMTP settings nothing is sent and the
// console works as before (lib/mail.ts).

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
    const approvers = await db.query<{ username: string; email: string }>(
      `SELECT username, email FROM console.users
        WHERE role IN ('operator', 'admin') AND disabled_at IS NULL AND email IS NOT NULL AND NOT (id = ANY ($1::int[]))
        ORDER BY id`,
      [proposers],
    );
    const link = publicUrl() ? `${publicUrl()}/approvals` : "the console's page Approvals (/approvals)";
    const lines = changes.map(
      (c) =>
        `- #${c.id}${c.case_id ? ` (case ${c.case_id})` : ""}, proposed by ${c.proposed_by}: ${english(restoredMessage(c.summary) ?? String(c.summary))}`,
    );
    const subject =
      changes.length === 1 ? `Change ${changes[0].id} waits for your approval` : `${changes.length} changes wait for your approval`;
    for (const approver of approvers)
      await sendMail({
        to: approver.email,
        subject,
        text: [
          `Hello ${approver.username},`,
          "",
          `${changes.length === 1 ? "A change waits" : "These changes wait"} for a second person's approval in the Registry State Console:`,
          "",
          ...lines,
          "",
          `Approve or reject at ${link}. Nothing reaches the registry before someone approves it; its proposer cannot.`,
        ].join("\n"),
      });
  }, "mail to approvers");
}
