import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { LanguageSwitch } from "@/components/i18n/language-switch";
import { I18nProvider } from "@/components/i18n/provider";
import { Link } from "@/components/link";
import { SearchShortcut } from "@/components/search-shortcut";
import { AccountNoticesBanner } from "@/components/users/account-notices";
import { renderingActor } from "@/lib/auth/guard";
import { roleAllows } from "@/lib/auth/roles";
import { readConfig } from "@/lib/config";
import { registryZone } from "@/lib/format/datetime";
import { getLocale, getTranslations } from "@/lib/i18n/server";
import { setLanguageAction } from "./preferences/actions";
import "./globals.css";

// Every page is rendered per request, from the database: `next build` renders none of them ahead
// and so never opens a database (a build host has none; the embedded one may be in use).
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("common");
  return {
    title: { default: t("brand"), template: t("titleTemplate", { page: "%s" }) },
    description: t("description"),
  };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Only decides what the navigation offers; every page and action checks access itself.
  const actor = await renderingActor();
  const locale = await getLocale();
  const t = await getTranslations("common");
  const timeZone = registryZone();
  return (
    <html lang={locale}>
      <body>
        <I18nProvider locale={locale} timeZone={timeZone}>
          {/* The first Tab stop: past the header to the page's content. */}
          <a href="#content" className="skip-link">
            {t("skipToContent")}
          </a>
          <header className="topbar">
            <Link href="/" className="brand">
              {t("brand")}
            </Link>
            {actor && (
              <nav className="main-nav" aria-label={t("nav.label")}>
                <Link href="/">{t("nav.overview")}</Link>
                <Link href="/objects">{t("nav.objects")}</Link>
                <Link href="/requests">{t("nav.requests")}</Link>
                <Link href="/cases">{t("nav.cases")}</Link>
                <Link href="/approvals">{t("nav.approvals")}</Link>
                {roleAllows(actor.role, "audit.read") && <Link href="/audit">{t("nav.audit")}</Link>}
                {roleAllows(actor.role, "users.manage") && <Link href="/admin/users">{t("nav.users")}</Link>}
                {roleAllows(actor.role, "users.manage") && <Link href="/admin/tokens">{t("nav.tokens")}</Link>}
                {roleAllows(actor.role, "cases.policy") && <Link href="/admin/approvals">{t("nav.policy")}</Link>}
              </nav>
            )}
            {actor && (
              <search className="quick-search">
                <form method="get" action="/objects">
                  <input
                    type="search"
                    name="q"
                    required
                    maxLength={255}
                    aria-label={t("quickSearch.label")}
                    aria-keyshortcuts="/"
                    placeholder={t("quickSearch.placeholder")}
                    title={t("quickSearch.shortcut")}
                  />
                </form>
                <SearchShortcut />
              </search>
            )}
            <div className="who">
              <span className="zone" title={t("timeZone", { zone: timeZone })}>
                {t("timeZone", { zone: timeZone })}
              </span>
              <LanguageSwitch save={actor ? setLanguageAction : undefined} secureCookie={readConfig().httpsOnly} />
              {actor && (
                <>
                  <span>
                    <Link href="/preferences" title={t("nav.account")}>
                      {actor.username}
                    </Link>{" "}
                    <span className="role">{t(`roles.${actor.role}`)}</span>
                  </span>
                  <SignOutButton />
                </>
              )}
            </div>
          </header>
          <main className="content" id="content" tabIndex={-1}>
            {actor && <AccountNoticesBanner username={actor.username} />}
            {children}
          </main>
        </I18nProvider>
      </body>
    </html>
  );
}
