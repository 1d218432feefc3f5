import type { Metadata } from "next";
import Link from "next/link";
import { BarChart, LineChart } from "@/components/dashboard/charts";
import { forPage } from "@/lib/auth/page";
import { dashboard } from "@/lib/dashboard";
import { formatInstant } from "@/lib/format/datetime";
import { listHref } from "@/lib/objects/url";

export const metadata: Metadata = { title: "Overview" };

/** The start page: where the registry's states stand, what changed lately, what comes next. */
export default async function OverviewPage(props: PageProps<"/">) {
  const refresh = (await props.searchParams).refresh === "1";
  const d = await forPage(() => dashboard({ refresh }));
  const allStates = d.states.map((s) => s.name).join(",");
  const lag = d.engine.lagSeconds;
  return (
    <>
      <div className="page-head">
        <h1>Overview</h1>
        <p className="muted">
          Live objects; times in {d.timeZone}. Every figure opens the list of exactly what it counts. Counts as of {formatInstant(d.asOf)}{" "}
          (kept for a minute) · <Link href="/?refresh=1">count again now</Link>
        </p>
      </div>
      <div className="dashboard">
        <section className="panel" aria-labelledby="by-state">
          <h2 id="by-state">Objects per state now</h2>
          <BarChart
            label="Live objects per current state"
            bars={d.states.map((s) => ({
              label: s.name,
              value: s.objects,
              href: listHref({}, { states: s.name }),
              title: `${s.name}: ${s.objects.toLocaleString("en")} objects — ${s.description}`,
              className: s.external ? "external" : s.manual ? "manual" : "",
            }))}
          />
        </section>
        <section className="panel" aria-labelledby="per-day">
          <h2 id="per-day">States entered and left per day, last 30 days</h2>
          <p className="muted">
            Objects that entered (<span className="legend entered">■</span>) or left (<span className="legend left">■</span>) at least one
            state that day.
          </p>
          <LineChart
            label="Objects entering and leaving states per day"
            series={(["entered", "left"] as const).map((change) => ({
              name: change,
              className: change,
              points: d.days.map((day) => ({
                label: day.day,
                value: day[change],
                href: listHref({}, { states: allStates, state_match: "any", mode: change, from: day.from, to: day.to }),
                title: `${day.day}: ${day[change].toLocaleString("en")} objects ${change} a state`,
              })),
            }))}
          />
        </section>
        <section className="panel" aria-labelledby="next">
          <h2 id="next">Coming up</h2>
          <p>
            <Link href="/requests?upcoming=1">
              {d.upcoming.toLocaleString("en")} request{d.upcoming === 1 ? "" : "s"} start or end in the next 7 days
            </Link>
          </p>
          <h2>State engine</h2>
          <p>
            {d.engine.lastRunAt ? (
              <>
                Last run {formatInstant(d.engine.lastRunAt)} ({d.engine.lastRunKind}); history exact up to{" "}
                {d.engine.cursor ? formatInstant(d.engine.cursor) : "—"}
                {lag !== null && <>, {lag < 120 ? `${lag} s` : `${Math.round(lag / 60)} min`} ago</>}.
              </>
            ) : (
              "The state engine has not run yet."
            )}{" "}
            {d.engine.waiting > 0 && `${d.engine.waiting} object(s) wait for its next run.`}
          </p>
        </section>
        <section className="panel" aria-labelledby="recent">
          <h2 id="recent">Recent actions</h2>
          {d.recent === null ? (
            <p className="muted">The audit log is for administrators.</p>
          ) : (
            <ul className="recent">
              {d.recent.map((r) => (
                <li key={`${r.at}-${r.action}`}>
                  {formatInstant(r.at)} · {r.actor ?? "system"} · {r.action} · {r.result}
                </li>
              ))}
              <li>
                <Link href="/audit">The whole audit log</Link>
              </li>
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
