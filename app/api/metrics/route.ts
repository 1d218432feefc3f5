import { requestDatabase } from "@/lib/auth/request-context";
import { readConfig } from "@/lib/config";
import { logAnonymousRefusal } from "@/lib/log";
import { METRICS_CONTENT_TYPE, metricsText, scrapeAllowed } from "@/lib/metrics";

/**
 * GET /api/metrics: the console's metrics in Prometheus' text format (lib/metrics.ts), for a scraper
 * that sends METRICS_TOKEN as `Authorization: Bearer …`. Without the token set, metrics are off (404);
 * a wrong or missing one is refused (401) and logged, rate-limited.
 */
export async function GET(request: Request): Promise<Response> {
  const allowed = scrapeAllowed(request.headers.get("authorization"), readConfig().metricsToken);
  if (allowed === "off")
    return new Response("Metrics are off: set METRICS_TOKEN, and have the scraper send it as Authorization: Bearer <token>.\n", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  if (allowed === "refused") {
    logAnonymousRefusal("metrics", { code: "wrong or missing METRICS_TOKEN" });
    return new Response("Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.\n", {
      status: 401,
      headers: { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" },
    });
  }
  const db = await requestDatabase();
  const text = await metricsText(db.sql, db.connections);
  return new Response(text, { headers: { "Content-Type": METRICS_CONTENT_TYPE, "Cache-Control": "no-store" } });
}
