import type { Metadata } from "next";
import { AddUserForm, UserActions } from "@/components/users/users-admin";
import { currentActor } from "@/lib/auth/guard";
import { forPage } from "@/lib/auth/page";
import { ROLES } from "@/lib/auth/roles";
import { formatInstant } from "@/lib/format/datetime";
import { listUsers } from "@/lib/users/admin";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const users = await forPage(() => listUsers());
  const me = await currentActor();
  return (
    <>
      <div className="page-head">
        <h1>Users</h1>
        <p className="muted">{users.length} console users</p>
      </div>
      <section className="panel">
        <h2>Add a user</h2>
        <AddUserForm roles={ROLES} />
      </section>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            <th scope="col">Last seen</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id}>
              <td>
                <strong>{user.username}</strong>
                {user.displayName && <div className="muted">{user.displayName}</div>}
              </td>
              <td>{user.role}</td>
              <td>
                {user.disabled ? <span className="badge-off">disabled</span> : "active"}
                <div className="muted">{user.openSessions} open session(s)</div>
              </td>
              <td className="nowrap">{user.lastSeen ? formatInstant(user.lastSeen) : "never"}</td>
              <td>
                <UserActions user={{ ...user, lastSeen: user.lastSeen ?? "" }} roles={ROLES} isSelf={user.id === me?.userId} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
