import "server-only";
import { forbidden, redirect, unauthorized } from "next/navigation";
import { answerTo } from "../actions/answer";
import { AccessError } from "./guard";

/** The page being rendered (set by proxy.ts), to come back to; null outside a request. */
async function currentPath(): Promise<string | null> {
  try {
    const { headers } = await import("next/headers");
    return (await headers()).get("x-console-path");
  } catch {
    return null;
  }
}

/**
 * Renders a data-access call for a page: a refusal becomes the 401 or 403 page, and a database
 * that cannot be reached the "database unavailable" page (which comes back here when it can),
 * instead of an error. The check itself stays in the data-access layer.
 */
export async function forPage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AccessError && error.enrolFirst) redirect("/preferences?enrol=required");
    const answer = answerTo(error);
    if (answer.code === "unauthenticated") unauthorized();
    if (answer.code === "forbidden") forbidden();
    if (answer.code === "unavailable") {
      const back = await currentPath();
      redirect(back ? `/unavailable?next=${encodeURIComponent(back)}` : "/unavailable");
    }
    // Bad input and the unexpected: the page's error boundary (app/error.tsx).
    throw error;
  }
}
