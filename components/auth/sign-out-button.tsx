"use client";

import { signOut } from "next-auth/react";
import { useTranslations } from "@/lib/i18n/client";

export function SignOutButton() {
  const t = useTranslations("common");
  return (
    <button type="button" className="link-button" onClick={() => signOut({ callbackUrl: "/login" })}>
      {t("signOut")}
    </button>
  );
}
