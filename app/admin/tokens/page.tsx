import type { Metadata } from "next";
import { ActionForm } from "@/components/action-form";
import { NewTokenForm } from "@/components/admin/token-form";
import { forPage } from "@/lib/auth/page";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import { listApiTokens } from "@/lib/tokens";
import { createApiTokenAction, revokeApiTokenAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("admin");
  return { title: t("tokens.title") };
}

export default async function TokensPage() {
  const tokens = await forPage(() => listApiTokens());
  const t = await getTranslations("admin.tokens");
  const tc = await getTranslations("common");
  const fmt = await getFormat();
  return (
    <>
      <div className="page-head">
        <h1>{t("title")}</h1>
        <p className="muted">
          {t.rich("intro", {
            feed: "GET /api/state-changes?after=<id>&states=outzone,…",
            header: "Authorization: Bearer <token>",
            code: (chunks) => <code>{chunks}</code>,
          })}
        </p>
      </div>
      <section className="panel">
        <h2>{t("newClient")}</h2>
        <NewTokenForm action={createApiTokenAction} />
      </section>
      <table className="data-table tokens">
        <thead>
          <tr>
            <th scope="col">{t("columns.client")}</th>
            <th scope="col">{t("columns.created")}</th>
            <th scope="col">{t("columns.lastRead")}</th>
            <th scope="col">{t("columns.status")}</th>
          </tr>
        </thead>
        <tbody>
          {tokens.length === 0 && (
            <tr>
              <td colSpan={4} className="muted">
                {t("empty")}
              </td>
            </tr>
          )}
          {tokens.map((token) => (
            <tr key={token.id}>
              <td data-label={t("columns.client")}>
                <strong>{token.name}</strong>
              </td>
              <td data-label={t("columns.created")} className="nowrap">
                {t("created", { at: fmt.instant(token.createdAt), user: token.createdBy })}
              </td>
              <td data-label={t("columns.lastRead")} className="nowrap">
                {token.lastUsedAt ? t("lastRead", { at: fmt.instant(token.lastUsedAt), after: String(token.lastAfter) }) : tc("never")}
              </td>
              <td data-label={t("columns.status")}>
                {token.revokedAt ? (
                  <span className="badge-off">{t("revoked", { at: fmt.instant(token.revokedAt), user: token.revokedBy ?? "" })}</span>
                ) : (
                  <ActionForm action={revokeApiTokenAction} confirm={t("confirmRevoke", { name: token.name })} className="inline">
                    <input type="hidden" name="tokenId" value={token.id} />
                    <button type="submit">{t("revoke", { name: token.name })}</button>
                  </ActionForm>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
