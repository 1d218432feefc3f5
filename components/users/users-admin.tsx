"use client";

import {
  createUserAction,
  disableUserAction,
  enableUserAction,
  forceSignOutAction,
  setUserPasswordAction,
  setUserRoleAction,
} from "@/app/admin/users/actions";
import { ActionForm } from "./action-form";

export interface UserRow {
  id: number;
  username: string;
  displayName: string | null;
  role: string;
  disabled: boolean;
  openSessions: number;
  lastSeen: string;
}

export function AddUserForm({ roles }: { roles: readonly string[] }) {
  return (
    <ActionForm action={createUserAction}>
      <div className="form-row">
        <label>
          User name
          <input name="username" required maxLength={64} autoComplete="off" />
        </label>
        <label>
          Full name
          <input name="displayName" maxLength={200} autoComplete="off" />
        </label>
        <label>
          Role
          <select name="role" defaultValue="support">
            {roles.map((role) => (
              <option key={role}>{role}</option>
            ))}
          </select>
        </label>
        <label>
          Initial password
          <input name="password" type="password" required minLength={12} maxLength={200} autoComplete="new-password" />
        </label>
        <button type="submit">Add user</button>
      </div>
    </ActionForm>
  );
}

export function UserActions({ user, roles, isSelf }: { user: UserRow; roles: readonly string[]; isSelf: boolean }) {
  return (
    <div className="actions">
      <ActionForm action={setUserRoleAction} confirm={`Change the role of ${user.username}? Their sessions end.`} className="inline">
        <input type="hidden" name="userId" value={user.id} />
        <select name="role" defaultValue={user.role} aria-label={`Role of ${user.username}`}>
          {roles.map((role) => (
            <option key={role}>{role}</option>
          ))}
        </select>
        <button type="submit" className="secondary">
          Set role
        </button>
      </ActionForm>
      {user.disabled ? (
        <ActionForm action={enableUserAction} confirm={`Let ${user.username} sign in again?`}>
          <input type="hidden" name="userId" value={user.id} />
          <button type="submit" className="secondary">
            Enable
          </button>
        </ActionForm>
      ) : (
        !isSelf && (
          <ActionForm action={disableUserAction} confirm={`Disable ${user.username}? They are signed out at once.`}>
            <input type="hidden" name="userId" value={user.id} />
            <button type="submit" className="danger">
              Disable
            </button>
          </ActionForm>
        )
      )}
      <ActionForm action={forceSignOutAction} confirm={`End every session of ${user.username}?`}>
        <input type="hidden" name="userId" value={user.id} />
        <button type="submit" className="secondary">
          Sign out everywhere
        </button>
      </ActionForm>
      <ActionForm action={setUserPasswordAction} confirm={`Set a new password for ${user.username}?`} className="inline">
        <input type="hidden" name="userId" value={user.id} />
        <input
          name="password"
          type="password"
          required
          minLength={12}
          placeholder="new password"
          aria-label={`New password for ${user.username}`}
          autoComplete="new-password"
        />
        <button type="submit" className="secondary">
          Set password
        </button>
      </ActionForm>
    </div>
  );
}
