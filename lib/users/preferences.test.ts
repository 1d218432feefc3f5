import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { testBackends } from "../../testing/databases";
import { actAs, anonymous, signedInAs, TEST_CLIENT } from "../../testing/sessions";
import { currentActor } from "../auth/guard";
import type { RequestContext } from "../auth/request-context";
import { openSession } from "../auth/sessions";
import type { Database } from "../db/client";
import { getLocale } from "../i18n/server";
import { ownHiddenColumns, setOwnHiddenColumns, setOwnLanguage } from "./preferences";

// The browser's cookie jar as Next would hand it to a server action (tests have no Next request).
const browserCookies = vi.hoisted(() => [] as { name: string; value: string; options: Record<string, unknown> }[]);
vi.mock("next/headers", () => ({
  cookies: async () => ({
    set: (name: string, value: string, options: Record<string, unknown>) => browserCookies.push({ name, value, options }),
  }),
}));

describe.each(testBackends())("each user's language on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let support: RequestContext;

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    support = await signedInAs(db, "support", "jana");
  });
  afterAll(() => drop());
  afterEach(() => vi.unstubAllEnvs());

  const saved = async (username: string) =>
    (await db.sql.query<{ locale: string | null }>("SELECT locale FROM console.users WHERE username = $1", [username]))[0].locale;

  it("follows the browser until the person chooses, then their choice everywhere", async () => {
    expect(await saved("jana")).toBeNull();
    expect(await actAs({ ...support, locale: "cs" }, getLocale)).toBe("cs");
    expect(await actAs({ ...support, locale: null }, getLocale)).toBe("en");

    const result = await actAs({ ...support, locale: "en" }, () => setOwnLanguage({ locale: "cs" }));
    expect(result.message).toBe("Konzole nyní mluví česky.");
    expect(await saved("jana")).toBe("cs");
    // Another browser (English cookie, English Accept-Language): the saved choice wins.
    expect(await actAs({ ...support, locale: "en" }, getLocale)).toBe("cs");
    expect((await actAs(support, currentActor))?.locale).toBe("cs");

    const back = await actAs({ ...support, locale: "cs" }, () => setOwnLanguage({ locale: "en" }));
    expect(back.message).toBe("The console speaks English now.");
    expect(await actAs({ ...support, locale: "cs" }, getLocale)).toBe("en");
  });

  it("keeps the choice in the browser's language cookie, Secure when the console is served over HTTPS", async () => {
    vi.stubEnv("NEXTAUTH_URL", "https://console.registry.example");
    browserCookies.length = 0;
    await actAs(support, () => setOwnLanguage({ locale: "cs" }));
    expect(browserCookies).toEqual([
      { name: "console-locale", value: "cs", options: expect.objectContaining({ path: "/", sameSite: "lax", secure: true }) },
    ]);
    vi.stubEnv("NEXTAUTH_URL", "http://127.0.0.1:3000");
    await actAs(support, () => setOwnLanguage({ locale: "en" }));
    expect(browserCookies[1]).toMatchObject({ name: "console-locale", value: "en", options: { secure: false } });
  });

  it("refuses a language the console does not have and changes nothing", async () => {
    const before = await saved("jana");
    for (const locale of ["de", "", "CS", "cs-CZ", 1, null, undefined, "cs\u0000"]) {
      await expect(actAs(support, () => setOwnLanguage({ locale }))).rejects.toThrow(/Choose English \(en\) or Czech \(cs\)|NUL/);
    }
    expect(await saved("jana")).toBe(before);
  });

  it("needs a session: anonymous browsers keep their choice in their cookie only", async () => {
    await expect(actAs(anonymous(db), () => setOwnLanguage({ locale: "cs" }))).rejects.toThrow(/Sign in/);
    expect(await actAs({ ...anonymous(db), locale: "cs" }, getLocale)).toBe("cs");
    expect(await actAs(anonymous(db), getLocale)).toBe("en");
  });

  it("the database holds only the console's languages", async () => {
    await expect(db.sql.query("UPDATE console.users SET locale = 'de' WHERE username = 'jana'")).rejects.toThrow(/users_locale_check/);
  });

  it("keeps the columns each person hides, per table, with their user; refuses unknown tables and columns and the key column", async () => {
    const other = await signedInAs(db, "operator", "petr");
    expect(await actAs(support, () => ownHiddenColumns("objects"))).toEqual({});
    const set = (input: { table?: unknown; hidden?: unknown }) => actAs(support, () => setOwnHiddenColumns(input));
    expect((await set({ table: "objects", hidden: ["created", "registrar"] })).hidden).toEqual({ created: false, registrar: false });
    await set({ table: "requests", hidden: ["author"] });
    // Another browser of the same person (a new session) reads the same; another person has their own.
    const claims = support.claims as { uid: number };
    const elsewhere = { ...support, claims: { sid: await openSession(db.sql, claims.uid, TEST_CLIENT), uid: claims.uid } };
    expect(await actAs(elsewhere, () => ownHiddenColumns("objects"))).toEqual({ created: false, registrar: false });
    expect(await actAs(support, () => ownHiddenColumns("requests"))).toEqual({ author: false });
    expect(await actAs(other, () => ownHiddenColumns("objects"))).toEqual({});
    // Showing all again.
    await set({ table: "objects", hidden: [] });
    expect(await actAs(support, () => ownHiddenColumns("objects"))).toEqual({});
    // Bad input changes nothing and says why.
    await expect(set({ table: "users", hidden: [] })).rejects.toThrow("Choose a table: objects or requests.");
    await expect(set({ table: "objects", hidden: ["name"] })).rejects.toThrow(/no column name that can be hidden; name always shows/);
    await expect(set({ table: "objects", hidden: ["bogus"] })).rejects.toThrow(/no column bogus/);
    expect(await actAs(support, () => ownHiddenColumns("requests"))).toEqual({ author: false });
    await expect(actAs(anonymous(db), () => ownHiddenColumns("objects"))).rejects.toThrow(/Sign in/);
    await expect(actAs(anonymous(db), () => setOwnHiddenColumns({ table: "objects", hidden: [] }))).rejects.toThrow(/Sign in/);
  });
});
