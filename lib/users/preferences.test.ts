import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentActor } from "../auth/guard";
import type { RequestContext } from "../auth/request-context";
import type { Database } from "../db/client";
import { migrate } from "../db/migrations";
import { getLocale } from "../i18n/server";
import { testBackends } from "../testing/databases";
import { actAs, anonymous, signedInAs } from "../testing/sessions";
import { setOwnLanguage } from "./preferences";

describe.each(testBackends())("each user's language on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let support: RequestContext;

  beforeAll(async () => {
    ({ db, drop } = await backend.create());
    await migrate(db.sql);
    support = await signedInAs(db, "support", "jana");
  });
  afterAll(() => drop());

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
});
