"use client";

import { MAX_CURRENT_PASSWORD_LENGTH } from "@/lib/auth/password-limits";
import { useTranslations } from "@/lib/i18n/client";

/** How a person proves it is them before changing how they sign in (lib/users/reauth.ts). */
export type Proof = "password" | "directory" | "fresh_sign_in";

/** The current (or directory) password a change of sign-in asks for; single sign-on: a note instead. */
export function CurrentPasswordField({ proof }: { proof: Proof }) {
  const t = useTranslations("auth.account.proof");
  if (proof === "fresh_sign_in") return <p className="muted">{t("freshSignIn")}</p>;
  return (
    <label>
      {proof === "directory" ? t("directory") : t("password")}
      <input name="currentPassword" type="password" required maxLength={MAX_CURRENT_PASSWORD_LENGTH} autoComplete="current-password" />
    </label>
  );
}
