"use client";

import { usePathname } from "next/navigation";
import { Link } from "@/components/link";
import { useTranslations } from "@/lib/i18n/client";

/** The last part of the path as text; null when its %-encoding is broken. */
function lastSegment(path: string): string | null {
  try {
    return decodeURIComponent(path.split("/").pop() ?? "");
  } catch {
    return null;
  }
}

/**
 * An unknown id or name: say so, and offer to search the list for it. A by-name address that can
 * be no name (broken %-encoding, a NUL character) is said to be one: nothing was looked up.
 */
export function ObjectNotFound() {
  const t = useTranslations("object.notFound");
  const path = usePathname() ?? "";
  const segment = lastSegment(path);
  if (segment === null || segment.includes("\u0000"))
    return (
      <div className="not-found">
        <h1>{t("badTitle")}</h1>
        <p className="notice" role="status">
          {t.rich("badName", {
            problem: segment === null ? "encoding" : "nul",
            link: (chunks) => <Link href="/objects">{chunks}</Link>,
          })}
        </p>
      </div>
    );
  const asked = segment.slice(0, 255);
  return (
    <div className="not-found">
      <h1>{t("title", { asked: asked.slice(0, 60) })}</h1>
      <p>{path.includes("/by-name/") ? t("noName") : t("noId")}</p>
      <p>
        {t.rich("search", {
          asked: asked.slice(0, 60),
          link: (chunks) => <Link href={`/objects?q=${encodeURIComponent(asked)}&jump=no&deleted=include`}>{chunks}</Link>,
        })}
      </p>
    </div>
  );
}
