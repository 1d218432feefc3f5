import { ActionForm } from "@/components/action-form";
import { SimpleTable } from "@/components/simple-table";
import type { ActionResult } from "@/lib/actions/result";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { OwnSecurityKey } from "@/lib/users/security-keys";
import { AddSecurityKey, type KeyOptionsAction } from "./add-security-key";
import { CurrentPasswordField, type Proof } from "./current-password";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** /preferences: the person's security keys and passkeys (WebAuthn), adding one and removing one (each with the current password). */
export async function SecurityKeysPanel({
  keys,
  proof,
  actions,
}: {
  keys: OwnSecurityKey[];
  proof: Proof;
  /** A new key's options, adding it, removing one. */
  actions: { options: KeyOptionsAction; add: FormAction; remove: FormAction };
}) {
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
        ]}
      />
      <div className="form-row">
        <AddSecurityKey proof={proof} actions={{ options: actions.options, add: actions.add }} />
        {keys.length > 0 && (
          <ActionForm action={actions.remove} className="stacked" confirm={t("removeConfirm")}>
            <label>
              {t("removeWhich")}
              <select name="keyId" required>
                {keys.map((key) => (
                  <option key={key.id} value={key.id}>
                    {key.name}
                  </option>
                ))}
              </select>
            </label>
            <CurrentPasswordField proof={proof} />
            <button type="submit" className="secondary">
              {t("removeTitle")}
            </button>
          </ActionForm>
        )}
      </div>
    </section>
  );
}
