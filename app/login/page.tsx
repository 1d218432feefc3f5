import type { Metadata } from "next";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeLocalPath } from "@/lib/paths";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage(props: PageProps<"/login">) {
  const params = await props.searchParams;
  const error = Array.isArray(params.error) ? params.error[0] : params.error;
  const ssoName = process.env.OIDC_ISSUER ? (process.env.OIDC_NAME ?? "single sign-on") : undefined;
  return (
    <section className="sign-in-page">
      <h1>Sign in</h1>
      <p className="muted">Registry State Console is for the registry's administrators and support staff.</p>
      {/* Only paths of this console are followed after sign-in. */}
      <SignInForm callbackUrl={safeLocalPath(params.callbackUrl, "/")} initialError={error} ssoName={ssoName} />
    </section>
  );
}
