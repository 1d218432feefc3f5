"use client";

import { useState } from "react";
import { useFormat, useTranslations } from "@/lib/i18n/client";
import type { Locale } from "@/lib/i18n/config";
import { timelineRange, type Zoom } from "@/lib/objects/timeline";

export interface TimelineBar {
  state: string;
  from: string;
  /** null: still in force (drawn to the right edge). */
  to: string | null;
  /** pending request or what the rules foresee: drawn dashed. */
  future: boolean;
  /** Shown on hover: exact start and end in the registry's time zone, and what the bar is. */
  label: string;
}

interface StateTimelineProps {
  lanes: string[];
  bars: TimelineBar[];
  now: string;
  created: string;
  /** Tick labels are dates in this zone. */
  timeZone: string;
}

const WIDTH = 1000;
const LEFT = 190;
const LANE = 26;
const TOP = 8;

/** An axis date as the language writes it: English "2026-11-22" (ISO order), Czech "22. 11. 2026". */
function dayLabel(ms: number, timeZone: string, locale: Locale): string {
  return locale === "en"
    ? new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(ms))
    : new Intl.DateTimeFormat(locale, { timeZone, year: "numeric", month: "numeric", day: "numeric" }).format(new Date(ms));
}

/** One lane per state, a bar per period, a "now" line; zoom to the last month, year or the whole life. */
export function StateTimeline({ lanes: allLanes, bars: allBars, now, created, timeZone }: StateTimelineProps) {
  const t = useTranslations("object.timeline");
  const { locale } = useFormat();
  const [zoom, setZoom] = useState<Zoom>("year");
  const [hover, setHover] = useState<{ x: number; y: number; text: string } | null>(null);
  const nowMs = Date.parse(now);
  const [start, end] = timelineRange(zoom, nowMs, Date.parse(created), allBars);
  // Only what falls in the range: a state with no bar in it gets no (empty) lane.
  const bars = allBars.filter((b) => Date.parse(b.from) <= end && (b.to === null || Date.parse(b.to) >= start));
  const lanes = allLanes.filter((lane) => bars.some((b) => b.state === lane));
  const x = (ms: number) => LEFT + ((Math.min(Math.max(ms, start), end) - start) / (end - start)) * (WIDTH - LEFT - 10);
  const height = TOP + lanes.length * LANE + 30;
  const ticks = Array.from({ length: 6 }, (_, i) => start + ((end - start) * i) / 5);

  return (
    <div className="timeline">
      <fieldset className="timeline-zoom">
        <legend className="visually-hidden">{t("range")}</legend>
        {(["month", "year", "all"] as const).map((z) => (
          <button key={z} type="button" aria-pressed={zoom === z} onClick={() => setZoom(z)}>
            {t("zoom", { zoom: z })}
          </button>
        ))}
      </fieldset>
      {lanes.length === 0 && <p className="muted">{t("emptyRange")}</p>}
      <div className="timeline-frame" hidden={lanes.length === 0}>
        <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={t("label", { zoom })}>
          {lanes.map((lane, i) => (
            <g key={lane}>
              <rect x={0} y={TOP + i * LANE} width={WIDTH} height={LANE} className={i % 2 ? "lane odd" : "lane"} />
              <text x={8} y={TOP + i * LANE + 17} className="lane-label">
                {lane}
              </text>
            </g>
          ))}
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={x(tick)} x2={x(tick)} y1={TOP} y2={height - 22} className="tick" />
              <text x={x(tick)} y={height - 8} textAnchor={tick === end ? "end" : "middle"} className="tick-label">
                {dayLabel(tick, timeZone, locale)}
              </text>
            </g>
          ))}
          {bars.map((bar) => {
            const from = Date.parse(bar.from);
            // A recorded state still in force is recorded up to now: only what is foreseen runs past it.
            const to = bar.to ? Date.parse(bar.to) : bar.future ? end : Math.min(nowMs, end);
            if (to < start || from > end) return null;
            const lane = lanes.indexOf(bar.state);
            const x1 = x(from);
            const width = Math.max(2, x(to) - x1);
            const y = TOP + lane * LANE + 5;
            const show = () => setHover({ x: ((x1 + width / 2) / WIDTH) * 100, y: y + 20, text: bar.label });
            return (
              // biome-ignore lint/a11y/useSemanticElements: an SVG shape cannot be a button; it takes focus and names itself.
              <rect
                key={`${bar.state}-${bar.from}-${bar.future}`}
                x={x1}
                y={y}
                width={width}
                height={LANE - 10}
                rx={3}
                className={`bar${bar.future ? " future" : ""}`}
                data-state={bar.state}
                tabIndex={0}
                role="button"
                aria-label={bar.label}
                onMouseEnter={show}
                onFocus={show}
                onMouseLeave={() => setHover(null)}
                onBlur={() => setHover(null)}
              />
            );
          })}
          {nowMs >= start && nowMs <= end && (
            <g>
              <line x1={x(nowMs)} x2={x(nowMs)} y1={TOP - 4} y2={height - 22} className="now-line" />
              <text x={x(nowMs) + 3} y={TOP + 6} className="now-label">
                {t("now")}
              </text>
            </g>
          )}
        </svg>
        {hover && (
          <div
            className="timeline-tip"
            role="tooltip"
            // Kept inside the frame: anchored at its left, middle or right depending on where the bar is.
            style={{ left: `${hover.x}%`, top: hover.y, transform: `translateX(${hover.x > 70 ? -100 : hover.x < 30 ? 0 : -50}%)` }}
          >
            {hover.text}
          </div>
        )}
      </div>
      <p className="muted timeline-legend">{t("legend")}</p>
    </div>
  );
}
