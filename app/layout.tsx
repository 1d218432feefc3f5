import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Registry State Console", template: "%s · Registry State Console" },
  description: "See and steer the states of registry objects.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <Link href="/objects" className="brand">
            Registry State Console
          </Link>
          <nav className="main-nav" aria-label="Main">
            <Link href="/objects">Objects</Link>
          </nav>
        </header>
        <main className="content">{children}</main>
      </body>
    </html>
  );
}
