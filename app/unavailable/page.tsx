import type { Metadata } from "next";
import { safeLocalPath } from "@/lib/paths";

export const metadata: Metadata = { title: "Database unavailable" };

/** Where pages go when the database cannot be reached; it tries the page again every 5 seconds. */
export default async function UnavailablePage(props: PageProps<"/unavailable">) {
  const given = safeLocalPath((await props.searchParams).next, "/objects");
  const next = given.startsWith("/unavailable") ? "/objects" : given;
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
