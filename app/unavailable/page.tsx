import type { Metadata } from "next";

export const metadata: Metadata = { title: "Database unavailable" };

/** Only paths of this console: never another site, never a protocol-relative URL. */
function safeNext(value: string | string[] | undefined): string {
  const next = Array.isArray(value) ? value[0] : value;
  return next && /^\/(?![/\\])/.test(next) && next.length <= 2000 && !next.startsWith("/unavailable") ? next : "/objects";
}

/** Where pages go when the database cannot be reached; it tries the page again every 5 seconds. */
export default async function UnavailablePage(props: PageProps<"/unavailable">) {
  const next = safeNext((await props.searchParams).next);
  return (
    <div className="error-page" role="alert">
      <meta httpEquiv="refresh" content={`5;url=${next}`} />
      <h1>The registry database is unavailable</h1>
      <p>
        The console cannot reach its database right now: it may be restarting, or the network to it is down. Nothing was half-done — every
        change is saved whole or not at all, and a form sent again never makes its change twice.
      </p>
      <p>
        This page tries again every 5 seconds. <a href={next}>Try again now</a>
      </p>
    </div>
  );
}
