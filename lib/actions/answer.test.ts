import { describe, expect, it, vi } from "vitest";
import { AccessError } from "../auth/guard";
import { DatabaseError } from "../db/prisma-sql";
import { msg } from "../i18n/message";
import { answerHeaders, answerTo } from "./answer";
import { InputError } from "./input-error";
import { english } from "./message";

describe("what an error becomes for a person or a client (one place)", () => {
  it("answers a refusal with its status and text, bad input with 400 and its fields", () => {
    expect(answerTo(new AccessError(401, "unauthenticated", "Sign in first"))).toEqual({
      code: "unauthenticated",
      status: 401,
      text: "Sign in first",
    });
    expect(answerTo(new AccessError(403, "forbidden", "Not yours"))).toMatchObject({ code: "forbidden", status: 403 });
    const input = new InputError(msg("common.errors.invalid"), { state: [msg("field.invalid")] });
    expect(answerTo(input)).toEqual({ code: "invalid", status: 400, text: input.text, fieldErrors: input.fieldErrors });
  });

  it("answers a database that cannot be reached with 503 and a retry, anything else with 500 and a general text", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const lost = answerTo(new DatabaseError("connection to the database lost (DatabaseNotReachable)", "08006"));
    expect(lost).toMatchObject({ code: "unavailable", status: 503 });
    expect(english(lost.text)).toMatch(/database is unavailable right now/);
    expect(answerHeaders(lost)).toEqual({ "Retry-After": "5" });
    const refused = answerTo(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }));
    expect(refused.status).toBe(503);
    const bug = answerTo(new TypeError("x is undefined"));
    expect(bug).toMatchObject({ code: "error", status: 500 });
    expect(english(bug.text)).not.toMatch(/undefined/);
    expect(answerHeaders(bug)).toEqual({});
    // The unexpected ones are logged, refusals and bad input are not.
    expect(log).toHaveBeenCalledTimes(3);
    log.mockRestore();
  });
});
