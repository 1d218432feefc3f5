import type { Metadata } from "next";
import { SignInForm } from "@/components/auth/sign-in-form";
import { readConfig } from "@/lib/config";
import { getTranslations } from "@/lib/i18n/server";
import { safeLocalPath } from "@/lib/paths";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("auth");
  return { title: t("login.title") };
}

export default async function LoginPage(props: PageProps<"/login">) {
  const params = await props.searchParams;
  const t = await getTranslations("auth");
  const error = Array.isArray(params.error) ? params.error[0] : params.error;
  const ssoName = process.env.OIDC_ISSUER ? (process.env.OIDC_NAME ?? t("login.sso")) : undefined;
  return (
    <section className="sign-in-page">
      <h1>{t("login.title")}</h1>
      <p className="muted">{t("login.intro")}</p>
      {/* Only paths of this console are followed after sign-in. */}
      <SignInForm
        callbackUrl={safeLocalPath(params.callbackUrl, "/")}
        initialError={error}
        ssoName={ssoName}
        rpId={readConfig().securityKeys.rpId}
      />
    </section>
  );
}
