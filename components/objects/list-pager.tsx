interface ListPagerProps {
  first: string | null;
  previous: string | null;
  next: string | null;
  last: string | null;
  /** "Rows 1–50 of 1,234" and the like. */
  status: string;
}

/** First / previous / next / last as plain links (null: not available), so paging works without JavaScript. */
export function ListPager({ first, previous, next, last, status }: ListPagerProps) {
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
    <nav className="pager" aria-label="Pages">
      {link(first, "« First")}
      {link(previous, "‹ Previous", "prev")}
      <span className="pager-status">{status}</span>
      {link(next, "Next ›", "next")}
      {link(last, "Last »")}
    </nav>
  );
}
