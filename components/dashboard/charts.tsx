"use client";

// The start page's charts: plain SVG (rendered on the server too), every mark a link to the list
// of exactly the objects it counts. Figures, days and the marks' accessible labels are written in
// the page's language.

import { useFormat, useTranslations } from "@/lib/i18n/client";

export interface Bar {
  /** The state's name (a technical token, shown as it is). */
  state: string;
  value: number;
  href: string;
  /** The state's description, in the bar's title. */
  description: string;
  className?: string;
}

/** The charts' width in SVG units: about the width each is shown at beside the other on a 1,366 px screen, so their 12-unit text stays about 12 px. */
const CHART_WIDTH = 560;

/** Horizontal bars, one per state. */
export function BarChart({ bars, label }: { bars: Bar[]; label: string }) {
  const t = useTranslations("dashboard");
  const fmt = useFormat();
  const max = Math.max(1, ...bars.map((b) => b.value));
  const row = 24;
  const labelWidth = 340; // the longest state name (45 characters) at 12 units
  const width = CHART_WIDTH;
  const barSpace = width - labelWidth - 80;
  return (
    <svg className="chart bar-chart" viewBox={`0 0 ${width} ${bars.length * row + 8}`} role="img" aria-label={label}>
      {bars.map((bar, i) => {
        const y = i * row + 4;
        const w = bar.value === 0 ? 0 : Math.max(2, (bar.value / max) * barSpace);
        const title = t("byState.bar", { state: bar.state, count: bar.value, description: bar.description });
        return (
          <a key={bar.state} href={bar.href} aria-label={title} className="chart-link">
            <title>{title}</title>
            <text x={labelWidth - 8} y={y + 15} textAnchor="end" className="chart-label">
              {bar.state}
            </text>
            <rect
              x={labelWidth}
              y={y + 3}
              width={w}
              height={row - 8}
              className={`chart-bar ${bar.className ?? ""}`}
              data-state={bar.state}
            />
            <text x={labelWidth + w + 6} y={y + 15} className="chart-value">
              {fmt.number(bar.value)}
            </text>
          </a>
        );
      })}
    </svg>
  );
}

export interface Point {
  /** The registry's calendar day, YYYY-MM-DD (shown as the page's language writes it). */
  day: string;
  value: number;
  href: string;
}

/** Lines over days, one per kind of change; each point a link. */
export function LineChart({
  series,
  label,
}: {
  series: { name: "entered" | "left"; className: string; points: Point[] }[];
  label: string;
}) {
  const t = useTranslations("dashboard");
  const fmt = useFormat();
  const width = CHART_WIDTH;
  const height = 220;
  const left = 48;
  const bottom = 28;
  const top = 12;
  const n = Math.max(1, ...series.map((s) => s.points.length));
  const max = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.value)));
  const x = (i: number) => left + (i * (width - left - 12)) / Math.max(1, n - 1);
  const y = (v: number) => top + (1 - v / max) * (height - top - bottom);
  const first = series[0]?.points ?? [];
  return (
    <svg className="chart line-chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <line x1={left} x2={width - 12} y1={y(0)} y2={y(0)} className="chart-axis" />
      <text x={left - 6} y={y(max) + 4} textAnchor="end" className="chart-value">
        {fmt.number(max)}
      </text>
      <text x={left - 6} y={y(0) + 4} textAnchor="end" className="chart-value">
        {fmt.number(0)}
      </text>
      {[0, Math.floor((n - 1) / 2), n - 1].map((i) =>
        first[i] ? (
          <text key={i} x={x(i)} y={height - 8} textAnchor={i === 0 ? "start" : i === n - 1 ? "end" : "middle"} className="chart-label">
            {fmt.day(first[i].day)}
          </text>
        ) : null,
      )}
      {series.map((s) => (
        <g key={s.name} className={s.className}>
          <polyline points={s.points.map((p, i) => `${x(i)},${y(p.value)}`).join(" ")} className="chart-line" />
          {s.points.map((p, i) => {
            const title = t("perDay.point", { day: fmt.day(p.day), count: p.value, change: s.name });
            return (
              <a key={p.day} href={p.href} aria-label={title} className="chart-link">
                <title>{title}</title>
                <circle cx={x(i)} cy={y(p.value)} r={4} className="chart-point" data-day={p.day} data-series={s.name} />
              </a>
            );
          })}
        </g>
      ))}
    </svg>
  );
}
