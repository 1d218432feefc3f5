"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "@/lib/i18n/client";

/** An unknown id or name: say so, and offer to search the list for it. */
export function ObjectNotFound() {
  const t = useTranslations("object.notFound");
  const path = usePathname() ?? "";
  const asked = decodeURIComponent(path.split("/").pop() ?? "").slice(0, 255);
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
