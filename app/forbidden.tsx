import { Link } from "@/components/link";
import { getTranslations } from "@/lib/i18n/server";

export default async function Forbidden() {
  const t = await getTranslations("auth");
  return (
    <section className="message-page">
      <h1>{t("forbidden.title")}</h1>
      <p>{t("forbidden.text")}</p>
      <p>
        <Link href="/objects">{t("forbidden.back")}</Link>
      </p>
    </section>
  );
}
