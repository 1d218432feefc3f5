import "server-only";
import { forbidden, unauthorized } from "next/navigation";
import { AccessError } from "./guard";

/**
 * Renders a data-access call for a page: a refusal becomes the 401 or 403 page instead of an
 * error. The check itself stays in the data-access layer.
 */
export async function forPage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AccessError) {
      if (error.status === 401) unauthorized();
      forbidden();
    }
    throw error;
  }
}
