import { render } from "@/lib/actions/message";
import { msg } from "@/lib/i18n/message";
import { getLocale } from "@/lib/i18n/server";
import { noticeText, takeOwnNotices } from "@/lib/users/notices";

/**
 * The first page of a session: what changed in how the person signs in since they last signed in
 * (a password, a second factor, the e-mail address), each shown once (lib/users/notices.ts).
 */
export async function AccountNoticesBanner({ username }: { username: string }) {
  const notices = await takeOwnNotices().catch(() => []);
  if (notices.length === 0) return null;
  const locale = await getLocale();
  return (
    <div className="notice" role="alert" data-testid="account-notices">
      <p>
        <strong>{render(msg("notices.heading"), locale)}</strong>
      </p>
      {notices.map((notice) => (
        <p key={`${notice.kind} ${notice.at.toISOString()}`}>{noticeText(notice, locale, username)}</p>
      ))}
      <p>{render(msg("notices.notYou"), locale)}</p>
    </div>
  );
}
