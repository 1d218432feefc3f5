import { requestDatabase } from "@/lib/auth/request-context";
import { readConfig } from "@/lib/config";
import { healthReport } from "@/lib/health";

/** GET /api/health: for load balancers and monitors; no registry data, no session needed. 200 when ok, 503 otherwise. */
export async function GET(): Promise<Response> {
  const db = await requestDatabase().catch(() => null);
  const health = db
    ? await healthReport(db.sql, readConfig().stateEngineIntervalSeconds)
    : { status: "down", database: "unreachable", problems: ["the database could not be opened"] };
  return Response.json(health, { status: health.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
