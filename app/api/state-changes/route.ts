import { answerHeaders, answerTo } from "@/lib/actions/answer";
import { english } from "@/lib/actions/message";
import { readStateChanges } from "@/lib/feed";

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, {
    status,
    headers: { "Cache-Control": "no-store", ...(status === 401 ? { "WWW-Authenticate": "Bearer" } : {}), ...headers },
  });

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
    // A program reads the feed: its answers are in English.
    const answer = answerTo(error);
    return json({ error: english(answer.text) }, answer.status, answerHeaders(answer));
  }
}
