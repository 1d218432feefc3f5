import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { english, render } from "../actions/message";
import { passwordProblem, passwordWeakness } from "./password-policy";

const said = async (password: string, inputs: string[] = []) => {
  const problem = await passwordProblem(password, inputs);
  return problem ? english(problem) : null;
};

describe("which new passwords the console accepts", () => {
  it("refuses common and breached passwords, and small changes of them, saying so", async () => {
    for (const password of [
      "password1234",
      "Password1234",
      "P@ssw0rd1234",
      "qwerty123456",
      "1q2w3e4r5t6y",
      "iloveyou2024",
      "letmein12345",
      "monkey123456",
      "zaq12wsxcde3",
      "Password123!",
    ]) {
      expect([password, await passwordWeakness(password)]).toEqual([password, "common"]);
      expect(await said(password)).toMatch(/^This password is on the list of common and breached passwords/);
    }
  });

  it("refuses passwords built on the user's own names, and other guessable ones", async () => {
    expect(await passwordWeakness("jana.novakova2024", ["jana.novakova", "Jana Nováková"])).toBe("personal");
    expect(await said("jana.novakova2024", ["jana.novakova"])).toMatch(/built on the user name/);
    expect(await passwordWeakness("abcdefghijklmnop")).toBe("guessable");
    expect(await passwordWeakness("aaaaaaaaaaaaaaaaaaaa")).toBe("guessable");
    expect(await said("abcdefghijklmnop")).toMatch(/too easy to guess: it is made of common words/);
  });

  it("refuses passwords built on the user name and its parts (split on . _ @ -), saying so", async () => {
    for (const password of ["target.target", "target2024!!", "Target_2024!", "T4rget2024!!", "target-target-2024"]) {
      expect([password, await passwordWeakness(password, ["target"])]).toEqual([password, "personal"]);
    }
    expect(await passwordWeakness("Novakova2024!!", ["jana.novakova"])).toBe("personal");
    expect(await passwordWeakness("nic.cz.2024!!", ["jana@nic.cz"])).toBe("personal");
    expect(await passwordWeakness("jana.novakova2024", ["jana.novakova", "Jana Nováková"])).toBe("personal");
    expect(await said("target2024!!", ["target"])).toMatch(/built on the user name/);
  });

  it("refuses passwords built on the display name and its parts, with or without diacritics", async () => {
    expect(await passwordWeakness("Nováková2024!", ["jn", "Jana Nováková"])).toBe("personal");
    expect(await passwordWeakness("novakova.jana.1", ["jn", "Jana Nováková"])).toBe("personal");
  });

  it("refuses a season or a month with a year, in English and Czech", async () => {
    for (const password of [
      "Summer2024!!",
      "Spring2025!!",
      "Winter2023!!",
      "Podzim2024!!",
      "Léto2025!!!!",
      "Leden2024!!!",
      "December2024!",
    ]) {
      expect([password, await passwordWeakness(password)]).toEqual([password, "guessable"]);
    }
    expect(await said("Summer2024!!")).toMatch(/too easy to guess: it is made of common words, names, dates/);
  });

  it("refuses the registry's and the console's own words, however decorated", async () => {
    for (const password of ["Registry2024!", "console.console", "Fred12345!!!", "cznic.cz.2024", "Domena2024!!"]) {
      expect([password, await passwordWeakness(password)]).toEqual([password, "personal"]);
    }
  });

  it("refuses Czech words and names with digits and symbols added, for any user", async () => {
    for (const password of ["Praha2024!!!", "Heslo12345!!", "Brno-2024-!!", "Pr4h4-2024!!", "Sparta1893!!"]) {
      expect([password, await passwordWeakness(password, ["someone"])]).toEqual([password, "guessable"]);
    }
    // Another user's name is still a name: jana.novakova2024 is refused for petr too.
    expect(await passwordWeakness("jana.novakova2024", ["petr"])).toBe("guessable");
    expect(await passwordWeakness("jana.novakova2024")).not.toBeNull();
  });

  it("says it in Czech too", async () => {
    const problem = await passwordProblem("password1234");
    expect(problem && render(problem, "cs")).toMatch(/^Toto heslo je na seznamu běžných a uniklých hesel/);
  });

  it("keeps the length rules", async () => {
    expect(await said("short")).toBe("Passwords have at least 12 characters.");
    // ASVS 4.0 V2.1.2: 64 characters and more allowed, more than 128 refused.
    expect(await said(`${"correct horse battery staple ".repeat(4)}zebra`.slice(0, 128))).toBeNull();
    expect(await said("x".repeat(129))).toBe("Passwords have at most 128 characters.");
  });

  it("accepts passphrases and random passwords, long ones included", async () => {
    for (const password of [
      "a long enough password",
      "correct horse battery staple",
      "zelená louka pod Sněžkou",
      "Tr0ub4dor&3-xk",
      "q7Vd9mKp2RzW",
      "Žluťoučký kůň úpěl ďábelské ódy, pak usnul u řeky Vltavy pod mostem", // 87 bytes: more than bcrypt reads
      "vanilla kettle orbit 42 sunrise".repeat(6).slice(0, 128),
      // A known word with enough else, and passphrases of several words, Czech ones included.
      "Praha-q7Vd9mKp2RzW",
      "Summer of the orange kettle",
      "jablko okno kolo lampa",
      "Modrá řeka teče pod horou",
    ]) {
      expect([password, await said(password, ["alice"])]).toEqual([password, null]);
    }
  });

  it("answers for any text of an acceptable length, without an error (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 12, maxLength: 200, unit: "binary" }), async (password) => {
        const problem = await passwordProblem(password, ["alice"]);
        expect(problem === null || typeof problem.key === "string").toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
