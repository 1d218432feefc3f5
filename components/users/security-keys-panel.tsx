import { removeSecurityKeyAction } from "@/app/preferences/actions";
import { ActionForm } from "@/components/action-form";
import { SimpleTable } from "@/components/simple-table";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { OwnSecurityKey } from "@/lib/users/security-keys";
import { AddSecurityKey } from "./add-security-key";

/** /preferences: the person's security keys and passkeys (WebAuthn), each removable, and adding one. */
export async function SecurityKeysPanel({ keys }: { keys: OwnSecurityKey[] }) {
  const [t, fmt] = await Promise.all([getTranslations("auth.account.securityKeys"), getFormat()]);
  return (
    <section className="panel" id="security-keys">
      <h2>{t("title")}</h2>
      <p>{t("text")}</p>
      <SimpleTable
        rows={keys}
        rowKey={(key) => key.id}
        empty={t("none")}
        columns={[
          { header: t("columns.name"), cell: (key) => key.name },
          { header: t("columns.added"), cell: (key) => fmt.instant(key.createdAt) },
          { header: t("columns.lastUsed"), cell: (key) => (key.lastUsedAt ? fmt.instant(key.lastUsedAt) : t("never")) },
          {
            header: "",
            cell: (key) => (
              <ActionForm action={removeSecurityKeyAction} confirm={t("removeConfirm", { name: key.name })}>
                <input type="hidden" name="keyId" value={key.id} />
                <button type="submit" className="secondary" aria-label={`${t("remove")} ${key.name}`}>
                  {t("remove")}
                </button>
              </ActionForm>
            ),
          },
        ]}
      />
      <AddSecurityKey />
    </section>
  );
}
