import type { Metadata } from "next";
import { NewTokenForm } from "@/components/admin/token-form";
import { ActionForm } from "@/components/users/action-form";
import { forPage } from "@/lib/auth/page";
import { listApiTokens } from "@/lib/feed";
import { formatInstant } from "@/lib/format/datetime";
import { createApiTokenAction, revokeApiTokenAction } from "./actions";

export const metadata: Metadata = { title: "API tokens" };

export default async function TokensPage() {
  const tokens = await forPage(() => listApiTokens());
  return (
    <>
      <div className="page-head">
        <h1>API tokens</h1>
        <p className="muted">
          Other systems read the state change feed, <code>GET /api/state-changes?after=&lt;id&gt;&amp;states=outzone,…</code>, with{" "}
          <code>Authorization: Bearer &lt;token&gt;</code>. Each client keeps its own cursor (the last id it has).
        </p>
      </div>
      <section className="panel">
        <h2>New client</h2>
        <NewTokenForm action={createApiTokenAction} />
      </section>
      <table className="data-table tokens">
        <thead>
          <tr>
            <th scope="col">Client</th>
            <th scope="col">Created</th>
            <th scope="col">Last read</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {tokens.length === 0 && (
            <tr>
              <td colSpan={4} className="muted">
                No tokens yet.
              </td>
            </tr>
          )}
          {tokens.map((t) => (
            <tr key={t.id}>
              <td>
                <strong>{t.name}</strong>
              </td>
              <td className="nowrap">
                {formatInstant(t.createdAt)} by {t.createdBy}
              </td>
              <td className="nowrap">{t.lastUsedAt ? `${formatInstant(t.lastUsedAt)}, after ${t.lastAfter}` : "never"}</td>
              <td>
                {t.revokedAt ? (
                  <span className="badge-off">
                    revoked {formatInstant(t.revokedAt)} by {t.revokedBy}
                  </span>
                ) : (
                  <ActionForm
                    action={revokeApiTokenAction}
                    confirm={`Revoke the token of ${t.name}? Its next request is refused.`}
                    className="inline"
                  >
                    <input type="hidden" name="tokenId" value={t.id} />
                    <button type="submit">Revoke {t.name}</button>
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
