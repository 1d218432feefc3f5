import type { ConsoleExecutor } from "../db/driver";

/**
 * The notices of changes to how a person signs in (console.account_notices), as the change's
 * transaction writes them; lib/users/notices.ts shows and mails them. No server-only import: the
 * command line (npm run user) writes them too.
 */
export const NOTICE_KINDS = [
  "password_changed",
  "password_set",
  "email_changed",
  "second_factor_enrolled",
  "second_factor_removed",
  "second_factor_reset",
  "recovery_codes_renewed",
  "security_key_added",
  "security_key_removed",
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** Who made a change: the person themselves, an administrator, or the command line. */
export interface ChangedBy {
  username: string;
  clientAddress?: string | null;
  sessionId?: string | null;
}

/** Keeps a notice of `kind` for `userId`, in the transaction of the change. */
export async function recordNotice(tx: ConsoleExecutor, userId: number, kind: NoticeKind, by: ChangedBy): Promise<void> {
  await tx.prisma.accountNotice.create({
    data: { userId, kind, byUsername: by.username.slice(0, 64), clientAddress: by.clientAddress ?? null, sessionId: by.sessionId ?? null },
    select: { id: true },
  });
}
