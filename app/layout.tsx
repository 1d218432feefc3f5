import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { currentActor } from "@/lib/auth/guard";
import { roleAllows } from "@/lib/auth/roles";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Registry State Console", template: "%s · Registry State Console" },
  description: "See and steer the states of registry objects.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Only decides what the navigation offers; every page and action checks access itself.
  const actor = await currentActor().catch(() => null);
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <Link href="/" className="brand">
            Registry State Console
          </Link>
          {actor && (
            <nav className="main-nav" aria-label="Main">
              <Link href="/">Overview</Link>
              <Link href="/objects">Objects</Link>
              <Link href="/requests">Requests</Link>
              {roleAllows(actor.role, "audit.read") && <Link href="/audit">Audit log</Link>}
              {roleAllows(actor.role, "users.manage") && <Link href="/admin/users">Users</Link>}
              {roleAllows(actor.role, "users.manage") && <Link href="/admin/tokens">API tokens</Link>}
            </nav>
          )}
          {actor && (
            <div className="who">
              <span>
                {actor.username} <span className="role">{actor.role}</span>
              </span>
              <SignOutButton />
            </div>
          )}
        </header>
        <main className="content">{children}</main>
      </body>
    </html>
  );
}
