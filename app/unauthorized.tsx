import { Link } from "@/components/link";
import { getTranslations } from "@/lib/i18n/server";

export default async function Unauthorized() {
  const t = await getTranslations("auth");
  return (
    <section className="message-page">
      <h1>{t("unauthorized.title")}</h1>
      <p>{t("unauthorized.text")}</p>
      <p>
        <Link className="button" href="/login">
          {t("unauthorized.signIn")}
        </Link>
      </p>
    </section>
  );
}
