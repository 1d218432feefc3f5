import { afterEach, describe, expect, it, vi } from "vitest";
import { DatabaseError } from "../db/prisma-sql";
import { authOptions, signInStep } from "./options";
import { currentRequest, requestDatabase } from "./request-context";
import { signInWithPassword } from "./sign-in";
import { isSignInCode } from "./sign-in-errors";

// What next-auth hands to the browser as `error=` in the address: the message of whatever authorize()
// or the signIn callback raises. Only the console's own codes may be there, never a database's text.
vi.mock("./request-context", () => ({
  currentRequest: vi.fn(async () => ({ clientAddress: "203.0.113.9", userAgent: "vitest" })),
  requestDatabase: vi.fn(async () => ({ sql: {} })),
}));
vi.mock("./sign-in", () => ({ signInWithPassword: vi.fn() }));

const options = authOptions({ NEXTAUTH_SECRET: "x".repeat(32) } as NodeJS.ProcessEnv);
const authorize = (credentials: Record<string, string>) =>
  (options.providers[0] as unknown as { options: { authorize: (c: Record<string, string>) => Promise<unknown> } }).options.authorize(
    credentials,
  );
/** The message authorize() raises, which next-auth puts in the address. */
const raised = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: Error) => error.message,
  );

const NUL_TEXT = 'invalid byte sequence for encoding "UTF8": 0x00';

afterEach(() => vi.restoreAllMocks());

describe("sign-in errors in the address", () => {
  it("never carries a database's text: an error in authorize becomes SignInFailed, logged", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.mocked(signInWithPassword).mockRejectedValueOnce(new DatabaseError(NUL_TEXT, "22021"));
    const message = await raised(authorize({ username: "a\u0000b", password: "x" }));
    expect(message).toBe("SignInFailed");
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^auth\.sign_in_error: unexpected error/), expect.any(DatabaseError));
  });

  it("says Unavailable, nothing more, when the database cannot be reached", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.mocked(requestDatabase).mockRejectedValueOnce(
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    );
    expect(await raised(authorize({ username: "alice", password: "x" }))).toBe("Unavailable");
    vi.mocked(currentRequest).mockRejectedValueOnce(new TypeError("headers was called outside a request scope"));
    expect(await raised(authorize({ username: "alice", password: "x" }))).toBe("SignInFailed");
  });

  it("names a refusal of bad bytes as such, and passes the console's own codes on", async () => {
    vi.mocked(signInWithPassword).mockResolvedValueOnce({ ok: false, reason: "bad_bytes" });
    expect(await raised(authorize({ username: "a\u0000b", password: "x" }))).toBe("BadBytes");
    vi.mocked(signInWithPassword).mockResolvedValueOnce({ ok: false, reason: "throttled", scope: "address", retryAfterSeconds: 30 });
    expect(await raised(authorize({ username: "alice", password: "x" }))).toBe("Throttled:address:30");
    vi.mocked(signInWithPassword).mockResolvedValueOnce({
      ok: false,
      reason: "second_factor_required",
      ask: { state: "required", totp: true, keyChallenge: null, keyIds: [] },
    });
    expect(await raised(authorize({ username: "alice", password: "x" }))).toBe("SecondFactorRequired");
    vi.mocked(signInWithPassword).mockResolvedValueOnce({ ok: false, reason: "invalid" });
    expect(await raised(authorize({ username: "alice", password: "x" }))).toBeNull(); // next-auth says CredentialsSignin
  });

  it("never carries a database's text out of the signIn callback either (single sign-on)", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.mocked(requestDatabase).mockRejectedValueOnce(new DatabaseError(NUL_TEXT, "22021"));
    const signIn = options.callbacks?.signIn as (params: unknown) => Promise<unknown>;
    const message = await raised(
      signIn({ account: { provider: "oidc" }, user: { id: "s" }, profile: { sub: "s", preferred_username: "x" } }),
    );
    expect(message).toBe("SignInFailed");
  });

  it("lets through only codes the sign-in form knows", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    for (const code of ["BadBytes", "Throttled:global:5", "SecondFactorWrong", "DirectoryUnavailable"]) {
      expect(isSignInCode(code)).toBe(true);
      expect(await raised(signInStep(() => Promise.reject(new Error(code))))).toBe(code);
    }
    for (const text of [NUL_TEXT, "Throttled:address:x", "SecondFactorRequired:key:<script>", ""]) {
      expect(isSignInCode(text)).toBe(false);
      expect(await raised(signInStep(() => Promise.reject(new Error(text))))).toBe("SignInFailed");
    }
    expect(await raised(signInStep(() => Promise.reject("a string")))).toBe("SignInFailed");
  });

  it("sends any callbackUrl to a path of the console or its start page, without an error", async () => {
    const redirect = options.callbacks?.redirect as (params: { url: string; baseUrl: string }) => Promise<string>;
    const baseUrl = "http://127.0.0.1:3000";
    for (const url of ["not a url", "\\/evil.example", "%2F%2Fevil.example", "//evil.example"])
      expect(await redirect({ url, baseUrl })).toBe(baseUrl);
    expect(await redirect({ url: "/objects", baseUrl })).toBe(`${baseUrl}/objects`);
  });
});
