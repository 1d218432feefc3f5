"use client";

import { useRef, useState } from "react";
import { useFormat, useTranslations } from "@/lib/i18n/client";
import { countText, type MatchCount } from "@/lib/objects/count-text";

interface ExportButtonProps {
  /** The list's query string: the export has the same filters and order. */
  query: string;
  /** What the list shows as its count (exact, or a counted bound), for the progress bar until the server says. */
  count: MatchCount;
}

type Progress =
  | { state: "idle" }
  | { state: "running"; rows: number; total: number; atLeast: boolean }
  | { state: "done"; rows: number; file: string }
  | { state: "canceled" }
  /** `detail`: the server's answer, or null when it said nothing but its status. */
  | { state: "failed"; detail: string | null; status: number | null };

/**
 * Streams the whole filtered result as CSV, counting rows as they arrive so large exports show
 * progress, then hands the file to the browser. Cancel stops the download and the server's reading.
 */
export function ExportButton({ query, count }: ExportButtonProps) {
  const t = useTranslations("objects");
  const fmt = useFormat();
  const [progress, setProgress] = useState<Progress>({ state: "idle" });
  const abort = useRef<AbortController | null>(null);

  const start = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ state: "running", rows: 0, ...count });
    try {
      const response = await fetch(`/objects/export${query ? `?${query}` : ""}`, { signal: controller.signal });
      if (!response.ok || !response.body) {
        const detail = (await response.text().catch(() => "")).slice(0, 300);
        throw new ExportRefused(detail || null, response.status);
      }
      const expected = Number(response.headers.get("X-Total-Count") ?? count.total);
      const atLeast = response.headers.get("X-Total-At-Least") === "true";
      const file = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? "objects.csv";
      const reader = response.body.getReader();
      const parts: Uint8Array[] = [];
      let lines = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        for (const byte of value) if (byte === 10) lines++;
        setProgress({ state: "running", rows: Math.max(0, lines - 1), total: expected, atLeast });
      }
      const rows = Math.max(0, lines - 1);
      const url = URL.createObjectURL(new Blob(parts as BlobPart[], { type: "text/csv" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = file;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setProgress({ state: "done", rows, file });
    } catch (error) {
      if (controller.signal.aborted) setProgress({ state: "canceled" });
      else if (error instanceof ExportRefused) setProgress({ state: "failed", detail: error.detail, status: error.status });
      else setProgress({ state: "failed", detail: error instanceof Error ? error.message : String(error), status: null });
    } finally {
      abort.current = null;
    }
  };

  return (
    <div className="export">
      {progress.state === "running" ? (
        <>
          <button type="button" onClick={() => abort.current?.abort()}>
            {t("export.cancel")}
          </button>
          <progress max={Math.max(progress.total, progress.rows, 1)} value={progress.rows} aria-label={t("export.progressLabel")} />
          <span role="status">
            {t("export.progress", {
              count: progress.total,
              rows: fmt.number(progress.rows),
              total: countText(progress, {
                number: (n) => fmt.number(n),
                moreThan: (n) => t("count.moreThan", { n }),
                many: () => t("count.many"),
              }),
            })}
          </span>
        </>
      ) : (
        <button type="button" onClick={start}>
          {t("export.start")}
        </button>
      )}
      {progress.state === "done" && (
        <span role="status">{t("export.done", { count: progress.rows, rows: fmt.number(progress.rows), file: progress.file })}</span>
      )}
      {progress.state === "canceled" && <span role="alert">{t("export.canceled")}</span>}
      {progress.state === "failed" && (
        <span role="alert">
          {t("export.failed", { detail: progress.detail ?? t("export.serverStatus", { status: String(progress.status) }) })}
        </span>
      )}
    </div>
  );
}

/** The server refused the export: its answer (if any) and status. */
class ExportRefused extends Error {
  detail: string | null;
  status: number;
  constructor(detail: string | null, status: number) {
    super(detail ?? `HTTP ${status}`);
    this.detail = detail;
    this.status = status;
  }
}
