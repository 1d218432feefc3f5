"use client";

import type { ReactNode } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "@/lib/auth/password-limits";
import { isRole } from "@/lib/auth/roles";
import { useTranslations } from "@/lib/i18n/client";
import { ActionForm } from "../action-form";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** What may be done to one user (each form sends the user's id). */
export interface UserRowActions {
  setRole: FormAction;
  disable: FormAction;
  enable: FormAction;
  forceSignOut: FormAction;
  resetSecondFactor: FormAction;
  allowLink: FormAction;
  setPassword: FormAction;
}

export interface UserRow {
  id: number;
  username: string;
  displayName: string | null;
  role: string;
  disabled: boolean;
  openSessions: number;
  lastSeen: string;
  source: "console" | "directory" | "identity provider";
  secondFactor: boolean;
  /** Until when linking at the next single sign-on or directory sign-in is allowed, formatted; "" when it is not. */
  linkAllowedUntil: string;
}

/** The role choices: the role's key is what the form sends, its name in the page's language what people see. */
function RoleOptions({ roles }: { roles: readonly string[] }) {
  const tc = useTranslations("common");
  return roles.map((role) => (
    <option key={role} value={role}>
      {isRole(role) ? tc(`roles.${role}`) : role}
    </option>
  ));
}

export function AddUserForm({ roles, action }: { roles: readonly string[]; action: FormAction }) {
  const t = useTranslations("admin.users.add");
  return (
    <ActionForm action={action}>
      <div className="form-row">
        <label>
          {t("username")}
          <input name="username" required maxLength={64} autoComplete="off" />
        </label>
        <label>
          {t("displayName")}
          <input name="displayName" maxLength={200} autoComplete="off" />
        </label>
        <label>
          {t("role")}
          <select aria-label={t("role")} name="role" defaultValue="support">
            <RoleOptions roles={roles} />
          </select>
        </label>
        <label>
          {t("password")}
          <input
            name="password"
            type="password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            maxLength={MAX_PASSWORD_LENGTH}
            autoComplete="new-password"
          />
        </label>
        <button type="submit">{t("submit")}</button>
      </div>
    </ActionForm>
  );
}

/** One button that acts on one user, after the person confirms. */
function UserButton({
  action,
  confirm,
  userId,
  danger = false,
  children,
}: {
  action: FormAction;
  confirm: string;
  userId: number;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <ActionForm action={action} confirm={confirm}>
      <input type="hidden" name="userId" value={userId} />
      <button type="submit" className={danger ? "danger" : "secondary"}>
        {children}
      </button>
    </ActionForm>
  );
}

export function UserActions({
  user,
  roles,
  isSelf,
  actions,
}: {
  user: UserRow;
  roles: readonly string[];
  isSelf: boolean;
  actions: UserRowActions;
}) {
  const t = useTranslations("admin.users.actions");
  const name = { user: user.username };
  return (
    <div className="actions">
      <ActionForm
        action={actions.setRole}
        // What changes, before → after; the same role changes nothing and is not sent.
        confirm={(data) => {
          const to = String(data.get("role") ?? "");
          return to === user.role ? t("roleUnchanged", { ...name, role: to }) : t("confirmRole", { ...name, from: user.role, to });
        }}
        className="inline"
      >
        <input type="hidden" name="userId" value={user.id} />
        {/* Keyed by the role: after a change the page's new role is what the select shows (a form action resets it to its default). */}
        <select key={user.role} name="role" defaultValue={user.role} aria-label={t("roleOf", name)}>
          <RoleOptions roles={roles} />
        </select>
        <button type="submit" className="secondary">
          {t("setRole")}
        </button>
      </ActionForm>
      {user.disabled ? (
        <UserButton action={actions.enable} confirm={t("confirmEnable", name)} userId={user.id}>
          {t("enable")}
        </UserButton>
      ) : (
        !isSelf && (
          <UserButton action={actions.disable} confirm={t("confirmDisable", name)} userId={user.id} danger>
            {t("disable")}
          </UserButton>
        )
      )}
      <UserButton action={actions.forceSignOut} confirm={t("confirmSignOut", name)} userId={user.id}>
        {t("signOutEverywhere")}
      </UserButton>
      {user.secondFactor && (
        <UserButton action={actions.resetSecondFactor} confirm={t("confirmResetSecondFactor", name)} userId={user.id}>
          {t("resetSecondFactor")}
        </UserButton>
      )}
      <ActionForm action={actions.allowLink} confirm={user.linkAllowedUntil ? t("confirmWithdrawLink", name) : t("confirmAllowLink", name)}>
        <input type="hidden" name="userId" value={user.id} />
        <input type="hidden" name="allow" value={user.linkAllowedUntil ? "off" : "on"} />
        <button type="submit" className="secondary">
          {user.linkAllowedUntil ? t("withdrawLink") : t("allowLink")}
        </button>
      </ActionForm>
      {user.source !== "directory" && (
        <ActionForm action={actions.setPassword} confirm={t("confirmPassword", name)} className="inline">
          <input type="hidden" name="userId" value={user.id} />
          <input
            name="password"
            type="password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            placeholder={t("newPassword")}
            aria-label={t("newPasswordFor", name)}
            autoComplete="new-password"
          />
          <button type="submit" className="secondary">
            {t("setPassword")}
          </button>
        </ActionForm>
      )}
    </div>
  );
}
