import type { Metadata } from "next";
import { getTranslations } from "@/lib/i18n/server";
import { safeLocalPath } from "@/lib/paths";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("auth");
  return { title: t("unavailable.title") };
}

/** Where pages go when the database cannot be reached; it tries the page again every 5 seconds. */
export default async function UnavailablePage(props: PageProps<"/unavailable">) {
  const given = safeLocalPath((await props.searchParams).next, "/objects");
  const next = given.startsWith("/unavailable") ? "/objects" : given;
  const t = await getTranslations("auth");
  return (
    <div className="error-page" role="alert">
      <meta httpEquiv="refresh" content={`5;url=${next}`} />
      <h1>{t("unavailable.heading")}</h1>
      <p>{t("unavailable.text")}</p>
      <p>{t.rich("unavailable.retry", { link: (chunks) => <a href={next}>{chunks}</a> })}</p>
    </div>
  );
}
