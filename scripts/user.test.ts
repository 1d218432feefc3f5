import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../lib/db/client";
import { migrate } from "../lib/db/migrations";

// `npm run user` sets passwords by the same rules as the admin's form: length, not common, not guessable.
describe("npm run user", () => {
  let dir: string;
  let pgliteDir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "rsc-user-cli-"));
    pgliteDir = path.join(dir, "pglite");
    const db = await openDatabase({ databaseUrl: undefined, pgliteDir });
    await migrate(db.direct);
    await db.close();
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const user = (args: string[], password: string) =>
    spawnSync(process.execPath, ["--import", "tsx", "scripts/user.ts", ...args, "--password-env", "NEW_PASSWORD"], {
      env: { ...process.env, DATABASE_URL: "", PGLITE_DIR: pgliteDir, NEW_PASSWORD: password },
      encoding: "utf8",
    });

  it("refuses a common password when adding a user or changing one's password, and accepts a strong one", () => {
    const weak = user(["add", "petr", "--role", "support"], "password1234");
    expect(weak.status).toBe(1);
    expect(weak.stderr).toContain("user: This password is on the list of common and breached passwords");
    const strong = user(["add", "petr", "--role", "support"], "orchard velvet pylon 1968");
    expect(strong.stderr).toBe("");
    expect(strong.stdout).toContain("Added petr (support).");
    const passwd = user(["passwd", "petr"], "petr12345678");
    expect(passwd.status).toBe(1);
    expect(passwd.stderr).toContain("user: This password is on the list of common and breached passwords");
  }, 120_000);

  it("resets a person's two-step sign-in (app and security keys) for when no administrator can sign in", async () => {
    const db = await openDatabase({ databaseUrl: undefined, pgliteDir });
    const [{ id }] = await db.sql.query<{ id: number }>("SELECT id FROM console.users WHERE username = 'petr'");
    await db.prisma.securityKey.create({
      data: { userId: id, credentialId: "K".repeat(43), publicKey: new Uint8Array([1]), name: "lost key" },
    });
    await db.close();
    const reset = user(["reset-second-factor", "petr"], "");
    expect(reset.stderr).toBe("");
    expect(reset.stdout).toContain("Reset the two-step sign-in of petr (app and security keys)");
    const again = user(["reset-second-factor", "petr"], "");
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("petr has no two-step sign-in to reset");
    const reopened = await openDatabase({ databaseUrl: undefined, pgliteDir });
    expect(await reopened.prisma.securityKey.count({ where: { userId: id } })).toBe(0);
    // Told to petr at his next sign-in.
    expect(await reopened.prisma.accountNotice.findMany({ where: { userId: id }, select: { kind: true, shownAt: true } })).toEqual([
      { kind: "second_factor_reset", shownAt: null },
    ]);
    expect(await reopened.prisma.auditEntry.count({ where: { action: "user.second_factor.reset", actor: { startsWith: "cli:" } } })).toBe(
      1,
    );
    await reopened.close();
  }, 120_000);
});
