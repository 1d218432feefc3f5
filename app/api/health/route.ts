import { currentActor } from "@/lib/auth/guard";
import { requestDatabase } from "@/lib/auth/request-context";
import { roleAllows } from "@/lib/auth/roles";
import { readConfig } from "@/lib/config";
import { type Health, healthReport, publicHealth, signedInHealth } from "@/lib/health";
import { warnLimited } from "@/lib/log";

/**
 * GET /api/health: for load balancers and monitors; no registry data, no session needed. 200 when
 * ok, 503 otherwise. Anyone gets the verdict (status, database reachable, migrations current or
 * pending); a signed-in administrator also gets the details (the problems as the driver and the
 * checks say them, the state engine's last run), which are logged too (rate-limited) for when no
 * one can be recognised because the database is down. Any signed-in user also gets the mode: which
 * engine writes the state history (beside, shadow, charge, or created).
 */
export async function GET(): Promise<Response> {
  const db = await requestDatabase().catch(() => null);
  const health: Health = db
    ? await healthReport(db.sql, readConfig().stateEngineIntervalSeconds)
    : {
        status: "down",
        database: "unreachable",
        migrations: "unknown",
        scheduler: { lastRunFinished: null, lagSeconds: null, kind: null },
        problems: ["the database could not be opened"],
        mode: null,
      };
  if (health.status !== "ok") warnLimited("health", `${health.status}: ${health.problems.join("; ")}`);
  // Only a request with a session cookie asks the database who it is (a load balancer's check sends none).
  const actor = await currentActor().catch(() => null);
  // Signed in: also which engine writes the state history (issue 40); an administrator: everything.
  const body = actor && roleAllows(actor.role, "system.health") ? health : actor ? signedInHealth(health) : publicHealth(health);
  return Response.json(body, { status: health.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
