import type { Metadata } from "next";
import { Link } from "@/components/link";
import { getTranslations } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("auth");
  return { title: t("notFound.title") };
}

/** Any address the console does not have, in the person's language (objects have their own page). */
export default async function NotFound() {
  const t = await getTranslations("auth");
  return (
    <section className="message-page">
      <h1>{t("notFound.title")}</h1>
      <p>{t("notFound.text")}</p>
      <p>
        <Link href="/">{t("notFound.back")}</Link>
      </p>
    </section>
  );
}
