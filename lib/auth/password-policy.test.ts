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

  it("says it in Czech too", async () => {
    const problem = await passwordProblem("password1234");
    expect(problem && render(problem, "cs")).toMatch(/^Toto heslo je na seznamu běžných a uniklých hesel/);
  });

  it("keeps the length rules", async () => {
    expect(await said("short")).toBe("Passwords have at least 12 characters.");
    expect(await said("x".repeat(201))).toBe("Passwords have at most 200 characters.");
  });

  it("accepts passphrases and random passwords, long ones included", async () => {
    for (const password of [
      "a long enough password",
      "correct horse battery staple",
      "zelená louka pod Sněžkou",
      "Tr0ub4dor&3-xk",
      "q7Vd9mKp2RzW",
      "Žluťoučký kůň úpěl ďábelské ódy, pak usnul u řeky Vltavy pod mostem", // 87 bytes: more than bcrypt reads
      "vanilla kettle orbit 42 sunrise".repeat(6).slice(0, 200),
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
