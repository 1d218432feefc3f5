import { afterEach, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { TEST_CLIENT } from "../../testing/sessions";
import type { Database } from "../db/client";
import { StartupError } from "../db/errors";
import { ensureAuthSecret, ensureFirstAdmin, firstAdminBanner } from "./bootstrap";
import { signInWithPassword } from "./sign-in";

describe.each(testBackends())("first start on $name", (backend) => {
  const drops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(drops.splice(0).map((d) => d()));
  });
  async function fresh(): Promise<Database> {
    const { db, drop } = await backend.createMigrated();
    drops.push(drop);
    return db;
  }

  it("refuses a short NEXTAUTH_SECRET, and runs on PostgreSQL only with one", async () => {
    const db = await fresh();
    await expect(ensureAuthSecret(db.sql, { NEXTAUTH_SECRET: "short" })).rejects.toThrow(/NEXTAUTH_SECRET is too short/);
    const env: Record<string, string | undefined> = {};
    if (backend.name === "postgres") {
      await expect(ensureAuthSecret(db.sql, env)).rejects.toBeInstanceOf(StartupError);
      await expect(ensureAuthSecret(db.sql, env)).rejects.toThrow(/NEXTAUTH_SECRET is not set/);
    } else {
      await ensureAuthSecret(db.sql, env);
      expect(env.NEXTAUTH_SECRET).toHaveLength(44);
      const again: Record<string, string | undefined> = {};
      await ensureAuthSecret(db.sql, again);
      expect(again.NEXTAUTH_SECRET).toBe(env.NEXTAUTH_SECRET);
    }
  });

  it("creates the first admin with a password shown once (embedded), or says how to (PostgreSQL)", async () => {
    const db = await fresh();
    const lines: string[] = [];
    const banners: string[] = [];
    await ensureFirstAdmin(
      db.sql,
      {},
      (line) => lines.push(line),
      (block) => banners.push(block),
    );
    if (backend.name === "postgres") {
      expect(lines).toEqual(["No console users yet: create the first admin with `npm run user -- add NAME --role admin`."]);
      return;
    }
    const password = lines[0].match(/the password (\S+) \(shown only this once/)?.[1] ?? "";
    expect(password).toHaveLength(20);
    // Also framed, in plain text, for the terminal.
    expect(banners).toEqual([firstAdminBanner(password)]);
    expect(banners[0]).toContain(`|   password   ${password} `);
    expect(await signInWithPassword(db.sql, "admin", password, TEST_CLIENT)).toMatchObject({ ok: true, user: { role: "admin" } });
    await ensureFirstAdmin(db.sql, {}, (line) => lines.push(line));
    expect(lines).toHaveLength(1);
  });

  it("uses CONSOLE_ADMIN_PASSWORD for the first admin when it is set and long enough", async () => {
    const db = await fresh();
    if (backend.name === "postgres") return;
    await expect(ensureFirstAdmin(db.sql, { CONSOLE_ADMIN_PASSWORD: "short" }, () => {})).rejects.toThrow(
      /CONSOLE_ADMIN_PASSWORD is not acceptable/,
    );
    const lines: string[] = [];
    await ensureFirstAdmin(db.sql, { CONSOLE_ADMIN_PASSWORD: "the chosen admin password" }, (l) => lines.push(l));
    expect(lines[0]).not.toContain("the chosen admin password");
    expect(await signInWithPassword(db.sql, "admin", "the chosen admin password", TEST_CLIENT)).toMatchObject({ ok: true });
  });
});
