"use client";

export default function ObjectsError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="error-page" role="alert">
      <h1>The object list could not be loaded</h1>
      <p>
        The database did not answer as expected{error.digest ? ` (reference ${error.digest}, in the server log)` : ""}. Your filters are
        kept in the address.
      </p>
      <p>
        <button type="button" onClick={reset}>
          Try again
        </button>{" "}
        <a href="/objects">Open the list without filters</a>
      </p>
    </div>
  );
}
