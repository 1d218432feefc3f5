import type { NextAuthOptions, Session } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { audit } from "../audit/log";
import { isDatabaseUnavailable } from "../db/errors";
import { logUnexpected } from "../log";
import { signInRedirect } from "../paths";
import { usernameFromClaims } from "./oidc";
import { admitOidcPerson, linkedOidcAccount, oidcIdentity } from "./oidc-sign-in";
import { currentRequest, requestDatabase } from "./request-context";
import { secondFactorCode } from "./second-factor-code";
import { sessionCookie } from "./session-cookie";
import { ABSOLUTE_LIFETIME_MS, endSession, openSession, validateSession } from "./sessions";
import { signInWithPassword } from "./sign-in";
import { isSignInCode } from "./sign-in-errors";
import { throttledCode } from "./throttled-code";

/** What /api/auth/session answers without an open session: next-auth's own answer to no cookie, {}. */
const SIGNED_OUT = {} as unknown as Session;

/**
 * What /api/auth/session answers: the user's name only while the cookie's session is open in the
 * database; one that was signed out, revoked, ended by its person or timed out answers as signed out.
 */
export async function sessionAnswer({ session, token }: { session: Session; token: JWT }): Promise<Session> {
  const sid = typeof token.sid === "string" ? token.sid : null;
  const open = sid
    ? await requestDatabase()
        .then((db) => validateSession(db.sql, sid))
        .catch(() => null)
    : null;
  if (!open || !("actor" in open)) return SIGNED_OUT;
  return { ...session, user: { name: token.name ?? null } };
}

/**
 * OpenID Connect for registries with a single sign-on, configured only through the environment.
 * The identity provider says who someone is. What they may do: with OIDC_ROLE_CLAIM, a claim the
 * provider sends (lib/auth/oidc.ts), the console user made or re-roled at each sign-in; without
 * it, the console's own user list. A provider's person is linked to a console account by issuer and
 * subject only (lib/auth/oidc-sign-in.ts): a user name takes over no account.
 */
function oidcProvider(env: NodeJS.ProcessEnv): NextAuthOptions["providers"] {
  const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET } = env;
  if (!OIDC_ISSUER || !OIDC_CLIENT_ID || !OIDC_CLIENT_SECRET) return [];
  return [
    {
      id: "oidc",
      name: env.OIDC_NAME ?? "Single sign-on",
      type: "oauth",
      wellKnown: `${OIDC_ISSUER.replace(/\/$/, "")}/.well-known/openid-configuration`,
      authorization: { params: { scope: env.OIDC_SCOPE ?? "openid profile email" } },
      clientId: OIDC_CLIENT_ID,
      clientSecret: OIDC_CLIENT_SECRET,
      idToken: true,
      // The nonce binds the ID token to this browser's sign-in (OpenID Connect Core 3.1.2.1), besides state and PKCE.
      checks: ["pkce", "state", "nonce"],
      profile(profile: Record<string, unknown>) {
        const name = usernameFromClaims(profile) ?? String(profile.sub);
        return { id: String(profile.sub), name, email: typeof profile.email === "string" ? profile.email : null };
      },
    },
  ];
}

/**
 * A step of signing in whose errors next-auth would hand to the browser as `error=` in the address
 * (authorize, the signIn callback): an error raised with one of the console's codes goes on; any
 * other (a database's, a library's) is logged, rate-limited, and becomes "Unavailable" or
 * "SignInFailed", never its own text.
 */
export async function signInStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof Error && isSignInCode(error.message)) throw error;
    const unavailable = isDatabaseUnavailable(error);
    logUnexpected(unavailable ? "auth.sign_in_unavailable" : "auth.sign_in_error", error);
    throw new Error(unavailable ? "Unavailable" : "SignInFailed");
  }
}

export function authOptions(env: NodeJS.ProcessEnv = process.env): NextAuthOptions {
  const options: NextAuthOptions & { callbacks: { signIn: NonNullable<NextAuthOptions["callbacks"]>["signIn"] } } = {
    secret: env.NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: ABSOLUTE_LIFETIME_MS / 1000 },
    cookies: {
      sessionToken: {
        name: sessionCookie(env).name,
        options: { httpOnly: true, sameSite: "lax", path: "/", secure: sessionCookie(env).secure },
      },
    },
    pages: { signIn: "/login", error: "/login" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "User name and password",
        credentials: {
          username: { label: "User name", type: "text" },
          password: { label: "Password", type: "password" },
          code: { label: "Code", type: "text" },
          assertion: { label: "Security key", type: "text" },
        },
        async authorize(credentials) {
          // Raised inside authorize(), an error's message is handed to the sign-in form as `error` in
          // the address: only the console's own codes are (signInStep, lib/auth/sign-in-errors.ts).
          const db = await signInStep(() => requestDatabase());
          const request = await signInStep(() => currentRequest());
          const result = await signInStep(() =>
            signInWithPassword(db.sql, String(credentials?.username ?? ""), String(credentials?.password ?? ""), request, {
              code: typeof credentials?.code === "string" ? credentials.code.slice(0, 40) : undefined,
              // A security key's answer (lib/auth/security-keys.ts checks its form): a few hundred bytes.
              assertion:
                typeof credentials?.assertion === "string" && credentials.assertion.length <= 16_000 ? credentials.assertion : undefined,
            }),
          );
          if (!result.ok) {
            if (result.reason === "throttled") throw new Error(throttledCode(result.scope, result.retryAfterSeconds));
            if (result.reason === "directory_unavailable") throw new Error("DirectoryUnavailable");
            if (result.reason === "no_console_group") throw new Error("NoConsoleGroup");
            if (result.reason === "account_not_linked") throw new Error("AccountNotLinked");
            if (result.reason === "bad_bytes") throw new Error("BadBytes");
            if (result.reason === "second_factor_required" || result.reason === "second_factor_wrong") {
              throw new Error(secondFactorCode(result.ask));
            }
            return null;
          }
          return { id: String(result.user.userId), name: result.user.username, sid: result.user.sessionId };
        },
      }),
      ...oidcProvider(env),
    ],
    callbacks: {
      // Any text may come as callbackUrl (or its cookie): a path of the console, or its start page.
      redirect: async (params) => signInRedirect(params),
      async signIn({ account, profile }) {
        if (account?.provider !== "oidc") return true;
        const db = await requestDatabase();
        const request = await currentRequest();
        const admission = await admitOidcPerson(db.sql, (profile ?? {}) as Record<string, unknown>, request, env);
        if (admission.ok) return true;
        // AccessDenied is next-auth's own refusal; another code is said on the sign-in page.
        return admission.refusal === "AccessDenied" ? false : `/login?error=${admission.refusal}`;
      },
      async jwt({ token, user, account, profile }) {
        if (!user) return token;
        if (account?.provider === "oidc") {
          // The account signIn linked to this issuer and subject: never one found by name.
          const identity = oidcIdentity((profile ?? {}) as Record<string, unknown>, env.OIDC_ISSUER);
          const db = await requestDatabase();
          const row = identity ? await linkedOidcAccount(db.sql, identity) : null;
          if (!row) return token;
          const request = await currentRequest();
          const sid = await db.sql.transaction(async (tx) => {
            const id = await openSession(tx, row.id, request);
            await audit(tx, {
              action: "auth.sign_in",
              result: "ok",
              actor: {
                userId: row.id,
                username: row.username,
                role: row.role,
                sessionId: id,
                clientAddress: request.clientAddress,
              },
              input: { method: "oidc" },
            });
            return id;
          });
          return { ...token, sid, uid: row.id, name: row.username };
        }
        return { ...token, sid: (user as { sid?: string }).sid, uid: Number(user.id) };
      },
      session: sessionAnswer,
    },
    events: {
      // Sign-out must always work: the cookie is cleared even when the database cannot be reached.
      async signOut({ token }) {
        const sid = typeof token?.sid === "string" ? token.sid : null;
        if (!sid) return;
        try {
          const db = await requestDatabase();
          const request = await currentRequest();
          await db.sql.transaction(async (tx) => {
            await endSession(tx, sid, "signed_out");
            await audit(tx, {
              action: "auth.sign_out",
              result: "ok",
              actor: { username: String(token?.name ?? `session:${sid}`), clientAddress: request.clientAddress },
            });
          });
        } catch (error) {
          console.error(`sign-out of session ${sid} was not recorded: ${(error as Error).message}`);
        }
      },
    },
  };
  // What the signIn callback raises reaches the browser's address as `error=` too.
  const { signIn } = options.callbacks;
  if (signIn) options.callbacks.signIn = (params) => signInStep(async () => signIn(params));
  return options;
}
