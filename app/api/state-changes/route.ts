import { InputError } from "@/lib/actions/result";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "@/lib/db/errors";
import { readStateChanges } from "@/lib/feed";

const json = (body: unknown, status = 200) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...(status === 401 ? { "WWW-Authenticate": "Bearer" } : {}) } });

/**
 * GET /api/state-changes?after=<id>&states=outzone,serverBlocked&limit=500 with
 * `Authorization: Bearer <token>` (tokens: /admin/tokens): the state change feed, oldest first.
 */
export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const params = Object.fromEntries(["after", "states", "limit"].map((key) => [key, url.searchParams.get(key) ?? undefined]));
  try {
    const page = await readStateChanges(request.headers.get("authorization"), params);
    if (!page) return json({ error: "A valid API token is required: Authorization: Bearer <token>." }, 401);
    return json(page);
  } catch (error) {
    if (error instanceof InputError) return json({ error: error.message }, 400);
    if (isDatabaseUnavailable(error)) return json({ error: DATABASE_UNAVAILABLE }, 503);
    throw error;
  }
}
