import { getTranslations } from "@/lib/i18n/server";

interface ListPagerProps {
  first: string | null;
  previous: string | null;
  next: string | null;
  last: string | null;
  /** "50 rows from the start · 1,234 in all" and the like, in the page's language. */
  status: string;
}

/** First / previous / next / last as plain links (null: not available), so paging works without JavaScript. */
export async function ListPager({ first, previous, next, last, status }: ListPagerProps) {
  const t = await getTranslations("objects");
  const link = (href: string | null, label: string, rel?: string) =>
    href ? (
      <a className="pager-link" href={href} rel={rel}>
        {label}
      </a>
    ) : (
      <span className="pager-link disabled" aria-disabled="true">
        {label}
      </span>
    );
  return (
    <nav className="pager" aria-label={t("pager.label")}>
      {link(first, t("pager.first"))}
      {link(previous, t("pager.previous"), "prev")}
      <span className="pager-status">{status}</span>
      {link(next, t("pager.next"), "next")}
      {link(last, t("pager.last"))}
    </nav>
  );
}
