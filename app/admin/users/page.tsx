import type { Metadata } from "next";
import {
  allowAccountLinkAction,
  createUserAction,
  disableUserAction,
  enableUserAction,
  forceSignOutAction,
  resetSecondFactorAction,
  setUserPasswordAction,
  setUserRoleAction,
} from "@/app/admin/users/actions";
import { AddUserForm, UserActions, type UserRowActions } from "@/components/users/users-admin";
import { currentActor } from "@/lib/auth/guard";
import { forPage } from "@/lib/auth/page";
import { isRole, ROLES } from "@/lib/auth/roles";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import { listUsers } from "@/lib/users/admin";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("admin");
  return { title: t("users.title") };
}

/** What the actions column does to each user. */
const actions: UserRowActions = {
  setRole: setUserRoleAction,
  disable: disableUserAction,
  enable: enableUserAction,
  forceSignOut: forceSignOutAction,
  resetSecondFactor: resetSecondFactorAction,
  allowLink: allowAccountLinkAction,
  setPassword: setUserPasswordAction,
};

export default async function UsersPage() {
  const users = await forPage(() => listUsers());
  const me = await currentActor();
  const t = await getTranslations("admin");
  const tc = await getTranslations("common");
  const fmt = await getFormat();
  return (
    <>
      <div className="page-head">
        <h1>{t("users.title")}</h1>
        <p className="muted">{t("users.count", { count: users.length })}</p>
      </div>
      <section className="panel">
        <h2>{t("users.add.title")}</h2>
        <AddUserForm roles={ROLES} action={createUserAction} />
      </section>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{t("users.columns.user")}</th>
            <th scope="col">{t("users.columns.role")}</th>
            <th scope="col">{t("users.columns.status")}</th>
            <th scope="col">{t("users.columns.lastSeen")}</th>
            <th scope="col">{t("users.columns.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id}>
              <td data-label={t("users.columns.user")}>
                <strong>{user.username}</strong>
                {user.displayName && <div className="muted">{user.displayName}</div>}
                <div className="muted">{t(`users.source.${user.source}`)}</div>
                {user.linkAllowedUntil && (
                  <div className="muted">{t("users.linkAllowedUntil", { until: fmt.instant(user.linkAllowedUntil) })}</div>
                )}
              </td>
              <td data-label={t("users.columns.role")}>{isRole(user.role) ? tc(`roles.${user.role}`) : user.role}</td>
              <td data-label={t("users.columns.status")}>
                {user.disabled ? <span className="badge-off">{t("users.disabled")}</span> : t("users.active")}
                <div className="muted">{t("users.sessions", { count: user.openSessions })}</div>
              </td>
              <td data-label={t("users.columns.lastSeen")} className="nowrap">
                {user.lastSeen ? fmt.instant(user.lastSeen) : tc("never")}
              </td>
              <td data-label={t("users.columns.actions")}>
                <UserActions
                  user={{ ...user, lastSeen: user.lastSeen ?? "", linkAllowedUntil: user.linkAllowedUntil ?? "" }}
                  roles={ROLES}
                  isSelf={user.id === me?.userId}
                  actions={actions}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
