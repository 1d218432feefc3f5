import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { actAs, anonymous, signedInAs } from "../../testing/sessions";
import type { RequestContext } from "../auth/request-context";
import type { Database } from "../db/client";
import { formatInstant } from "../format/datetime";
import { msg } from "../i18n/message";
import { createUser } from "../users/admin";
import { english, render } from "./message";
import { InputError, toActionResult } from "./result";

describe("messages of the data-access layer", () => {
  it("say their values as each language writes them: instants, counts, other messages; ids as given", () => {
    const at = new Date("2026-11-22T13:05:00Z");
    const canceled = msg("request.alreadyCanceled", { id: "12345", at });
    expect(english(canceled)).toBe(`Request 12345 was already canceled on ${formatInstant(at, "en")}.`);
    expect(render(canceled, "cs")).toBe(`Požadavek 12345 už byl zrušen ${formatInstant(at, "cs")}.`);
    const lifted = (restored: number) => msg("block.lifted", { id: "7", object: "a.cz", restored });
    expect(english(lifted(0))).toBe("Block 7 lifted: a.cz is no longer blocked.");
    expect(english(lifted(2))).toBe("Block 7 lifted: a.cz is no longer blocked; 2 earlier prohibition(s) restored.");
    expect(render(lifted(1), "cs")).toBe("Blokace 7 zrušena: objekt a.cz už není blokován; obnoven 1 dřívější zákaz.");
    expect(render(lifted(3), "cs")).toBe("Blokace 7 zrušena: objekt a.cz už není blokován; obnoveny 3 dřívější zákazy.");
    expect(render(lifted(5), "cs")).toBe("Blokace 7 zrušena: objekt a.cz už není blokován; obnoveno 5 dřívějších zákazů.");
    const clash = msg("request.sameState", { object: "a.cz", id: "3", state: "outzone", from: at, to: msg("common.openEnded") });
    expect(english(clash)).toBe(
      `a.cz already has request 3 for outzone (${formatInstant(at, "en")} → open-ended); two requests for one state may not overlap.`,
    );
    expect(render(clash, "cs")).toContain(`(${formatInstant(at, "cs")} → bez konce)`);
    expect(render("already said", "cs")).toBe("already said");
  });

  it("keep their English in InputError.message and say them in the request's language in toActionResult", async () => {
    const refusal = () =>
      toActionResult(async () => {
        throw new InputError(msg("request.noObject", { id: "42" }), { objectId: [msg("input.unknown", { what: "object" })] });
      });
    const english = { ok: false, code: "invalid", error: "There is no object with id 42.", fieldErrors: { objectId: ["Unknown object."] } };
    expect(await refusal()).toEqual(english);
    const context: RequestContext = { claims: null, clientAddress: null, userAgent: null };
    expect(await actAs(context, refusal)).toEqual(english);
    expect(await actAs({ ...context, locale: "cs" }, refusal)).toEqual({
      ok: false,
      code: "invalid",
      error: "Objekt s ID 42 neexistuje.",
      fieldErrors: { objectId: ["Neznámý objekt."] },
    });
    expect(new InputError(msg("request.noObject", { id: "42" })).message).toBe("There is no object with id 42.");
  });
});

describe.each(testBackends())("a server action's answer in the request's language on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let admin: RequestContext;
  let support: RequestContext;

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    admin = await signedInAs(db, "admin");
    support = await signedInAs(db, "support");
  });
  afterAll(() => drop());

  const create = (input: Record<string, unknown>) => () => toActionResult(() => createUser(input));
  const password = "a long enough password";

  it("refuses in Czech for a Czech request and in English by default", async () => {
    const short = create({ username: "x", role: "support", password });
    expect(await actAs(admin, short)).toEqual({
      ok: false,
      code: "invalid",
      error: "User names have 2–64 characters: letters, digits and . _ @ - (starting with a letter or digit).",
      fieldErrors: { username: ["User names have 2–64 characters: letters, digits and . _ @ - (starting with a letter or digit)."] },
    });
    expect(await actAs({ ...admin, locale: "cs" }, short)).toEqual({
      ok: false,
      code: "invalid",
      error: "Uživatelské jméno má 2–64 znaků: písmena, číslice a . _ @ - (na začátku písmeno nebo číslice).",
      fieldErrors: { username: ["Uživatelské jméno má 2–64 znaků: písmena, číslice a . _ @ - (na začátku písmeno nebo číslice)."] },
    });
    const weak = create({ username: "eve", role: "support", password: "short" });
    expect(await actAs(admin, weak)).toMatchObject({ error: "Passwords have at least 12 characters." });
    expect(await actAs({ ...admin, locale: "cs" }, weak)).toMatchObject({ error: "Heslo musí mít alespoň 12 znaků." });

    // A check with no message of ours: zod's own, in English as before, in Czech from its Czech locale.
    const odd = create({ username: "eve", role: "support", password, displayName: 5 });
    const inEnglish = await actAs(admin, odd);
    expect(inEnglish).toMatchObject({ ok: false, code: "invalid", error: "Invalid input: expected string, received number" });
    const inCzech = await actAs({ ...admin, locale: "cs" }, odd);
    expect(inCzech).toMatchObject({ ok: false, code: "invalid", error: expect.stringMatching(/^Neplatný vstup/) });

    expect(await actAs({ ...admin, locale: "cs" }, create({ username: "eve\u0000", role: "support", password }))).toMatchObject({
      error: "Formulář obsahuje znak NUL (\\0), který žádné pole nesmí obsahovat; nic nebylo změněno.",
    });
  });

  it("says who may not in Czech, with the role's Czech name", async () => {
    const attempt = create({ username: "mallory", role: "admin", password });
    expect(await actAs(support, attempt)).toEqual({ ok: false, code: "forbidden", error: "Your role (support) may not do this." });
    expect(await actAs({ ...support, locale: "cs" }, attempt)).toEqual({
      ok: false,
      code: "forbidden",
      error: "Vaše role (podpora) k tomu nemá oprávnění.",
    });
    expect(await actAs(anonymous(db), attempt)).toMatchObject({ error: "Sign in to use the console; your session may have ended." });
    expect(await actAs({ ...anonymous(db), locale: "cs" }, attempt)).toMatchObject({
      code: "unauthenticated",
      error: "Pro práci s konzolí se přihlaste; vaše relace mohla skončit.",
    });
  });

  it("says what was done in the request's language", async () => {
    expect(await actAs({ ...admin, locale: "cs" }, create({ username: "eve", role: "support", password }))).toEqual({
      ok: true,
      message: "Uživatel eve (podpora) byl přidán.",
    });
    expect(await actAs(admin, create({ username: "olga", role: "operator", password }))).toEqual({
      ok: true,
      message: "User olga (operator) was added.",
    });
    // The refusal of a taken name, in Czech, with its field.
    expect(await actAs({ ...admin, locale: "cs" }, create({ username: "eve", role: "admin", password }))).toEqual({
      ok: false,
      code: "invalid",
      error: "Uživatelské jméno eve je obsazené.",
      fieldErrors: { username: ["Toto uživatelské jméno je obsazené."] },
    });
  });
});
