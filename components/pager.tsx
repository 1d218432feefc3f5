interface PagerProps {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
}

/** First / previous / next / last links; plain links so paging works without JavaScript. */
export function Pager({ page, pageCount, hrefFor }: PagerProps) {
  const link = (target: number, label: string, rel?: string) =>
    target === page || target < 1 || target > pageCount ? (
      <span className="pager-link disabled" aria-disabled="true">
        {label}
      </span>
    ) : (
      <a className="pager-link" href={hrefFor(target)} rel={rel}>
        {label}
      </a>
    );
  return (
    <nav className="pager" aria-label="Pages">
      {link(1, "« First")}
      {link(page - 1, "‹ Previous", "prev")}
      <span className="pager-status">
        Page {page.toLocaleString("en")} of {pageCount.toLocaleString("en")}
      </span>
      {link(page + 1, "Next ›", "next")}
      {link(pageCount, "Last »")}
    </nav>
  );
}
