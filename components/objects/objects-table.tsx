"use client";

import { useEffect, useMemo, useState } from "react";
import { useTranslations } from "@/lib/i18n/client";

export interface ObjectsTableRow {
  id: number;
  name: string;
  type: string;
  sponsoringRegistrar: string | null;
  /** Already formatted in the registry's time zone. */
  created: string;
  expires: string | null;
  states: string[];
  pendingRequests: number;
}

export interface StateBadgeInfo {
  name: string;
  description: string;
  manual: boolean;
  external: boolean;
}

/** The columns (a person may hide all but name); their labels are the catalogue's table.columns. */
const COLUMNS = ["name", "type", "registrar", "states", "created", "expires", "pending"] as const;
type Column = (typeof COLUMNS)[number];
const STORAGE_KEY = "objects.columns";

interface ObjectsTableProps {
  rows: ObjectsTableRow[];
  states: StateBadgeInfo[];
  /** The list's order: the column and its direction. */
  sort: { key: string; desc: boolean };
  /** Sort links for each sortable column, per direction, built by the server from the current URL. */
  sortHrefs: Partial<Record<Column, { asc: string; desc: string }>>;
}

/**
 * The object list. Its rows reach the browser once, as data (not as a rendered tree as well), and
 * are drawn from it; sorting is a link (the server sorts); which columns show is the person's own
 * choice, kept in their browser. Links are plain links: a list of 50 objects must not make the
 * browser prefetch 50 object pages.
 */
export function ObjectsTable({ rows, states, sort, sortHrefs }: ObjectsTableProps) {
  const t = useTranslations("objects");
  const tc = useTranslations("common");
  const [hidden, setHidden] = useState<Column[]>([]);
  // A badge's explanation (its hover title) is added in the browser: the page brings each state's
  // description once, with the catalogue, instead of in the HTML of every badge (25 KB of a
  // 50-row list of outzone domains).
  const [explained, setExplained] = useState(false);

  useEffect(() => {
    setExplained(true);
    try {
      // { column: false } for each hidden column.
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}") as Record<string, boolean>;
      setHidden(COLUMNS.filter((c) => c !== "name" && saved[c] === false));
    } catch {
      // unreadable: all columns
    }
  }, []);
  const show = (column: Column, shown: boolean) => {
    const next = shown ? hidden.filter((c) => c !== column) : [...hidden, column];
    setHidden(next);
    localStorage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(next.map((c) => [c, false]))));
  };
  const columns = COLUMNS.filter((c) => !hidden.includes(c));

  // Each state's badge is the same on every row: its class and explanation are worked out once.
  const badges = useMemo(
    () =>
      new Map(
        states.map((s) => [
          s.name,
          {
            className: `badge${s.external ? " external" : ""}${s.manual ? " manual" : ""}`,
            title: `${s.description} — ${t(s.manual ? "table.manual" : "table.automatic")}, ${t(s.external ? "table.external" : "table.internal")}`,
          },
        ]),
      ),
    [states, t],
  );

  // The states that appear on this page, by name, for the key under the table.
  const shownStates = useMemo(() => [...new Set(rows.flatMap((row) => row.states))].sort(), [rows]);

  // Likewise each type's name (formatting a message costs more than looking it up).
  const typeNames = useMemo(
    () => new Map([...new Set(rows.map((row) => row.type))].map((type) => [type, t("typeName", { type })])),
    [rows, t],
  );

  const cell = (column: Column, row: ObjectsTableRow) => {
    switch (column) {
      case "name":
        return (
          <a href={`/objects/${row.id}`} className="name">
            {row.name}
          </a>
        );
      case "type":
        return <span className={`type type-${row.type}`}>{typeNames.get(row.type)}</span>;
      case "registrar":
        return row.sponsoringRegistrar ?? tc("none");
      case "states":
        return row.states.length === 0 ? (
          <span className="muted">{t("table.noStates")}</span>
        ) : (
          <ul className="badges">
            {row.states.map((name) => {
              const badge = badges.get(name);
              return (
                <li key={name} className={badge?.className ?? "badge"} title={explained ? (badge?.title ?? name) : undefined}>
                  {name}
                </li>
              );
            })}
          </ul>
        );
      case "created":
        return row.created;
      case "expires":
        return row.expires ?? tc("none");
      case "pending":
        return row.pendingRequests > 0 ? (
          <a href={`/objects/${row.id}#requests`} aria-label={t("table.pendingLabel", { count: row.pendingRequests, name: row.name })}>
            {row.pendingRequests}
          </a>
        ) : (
          <span className="muted">0</span>
        );
    }
  };

  return (
    <>
      <details className="column-picker">
        <summary>{t("table.columnPicker")}</summary>
        <fieldset>
          <legend>{t("table.showColumns")}</legend>
          {COLUMNS.map((column) => (
            <label key={column}>
              <input
                type="checkbox"
                checked={!hidden.includes(column)}
                disabled={column === "name"}
                onChange={(event) => show(column, event.target.checked)}
              />
              {t(`table.columns.${column}`)}
            </label>
          ))}
        </fieldset>
      </details>
      <p className="badge-legend">
        {t.rich("table.legend", {
          external: (chunks) => <span className="badge external">{chunks}</span>,
          manual: (chunks) => <span className="badge manual">{chunks}</span>,
        })}
      </p>
      <table className="data-table objects-table">
        <thead>
          <tr>
            {columns.map((column) => {
              const hrefs = sortHrefs[column];
              const sorted = sort.key === column ? (sort.desc ? "desc" : "asc") : null;
              return (
                <th key={column} scope="col" aria-sort={sorted ? (sorted === "asc" ? "ascending" : "descending") : undefined}>
                  {hrefs ? (
                    // A click turns the current order round; another column starts ascending.
                    <a className="sort" href={sorted === "asc" ? hrefs.desc : hrefs.asc}>
                      {t(`table.columns.${column}`)}
                      <span aria-hidden="true" className="sort-mark">
                        {sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : " ↕"}
                      </span>
                    </a>
                  ) : (
                    t(`table.columns.${column}`)
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {columns.map((column) => (
                <td
                  key={column}
                  className={`col-${column}${column === "created" || column === "expires" ? " nowrap" : ""}`}
                  data-label={t(`table.columns.${column}`)}
                >
                  {cell(column, row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {/* What each state on this page means, readable without hovering (on a phone there is no hover). */}
      {shownStates.length > 0 && (
        <details className="state-key">
          <summary>{t("table.stateKey")}</summary>
          <dl>
            {shownStates.map((name) => (
              <div key={name}>
                <dt>
                  <span className={badges.get(name)?.className ?? "badge"}>{name}</span>
                </dt>
                <dd>{badges.get(name)?.title ?? name}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </>
  );
}
