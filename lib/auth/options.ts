import type { NextAuthOptions, Session } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { audit } from "../audit/log";
import { provisionedUser } from "../users/provision";
import { updateUser } from "../users/store";
import { readOidcRoles, roleFromClaims, usernameFromClaims } from "./oidc";
import { currentRequest, requestDatabase } from "./request-context";
import { secondFactorCode } from "./second-factor-code";
import { ABSOLUTE_LIFETIME_MS, endSession, openSession, validateSession } from "./sessions";
import { signInWithPassword } from "./sign-in";
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

interface OidcUserRow {
  id: number;
  username: string;
  role: string;
  disabled: boolean;
}

/**
 * OpenID Connect for registries with a single sign-on, configured only through the environment.
 * The identity provider says who someone is. What they may do: with OIDC_ROLE_CLAIM, a claim the
 * provider sends (lib/auth/oidc.ts), the console user made or re-roled at each sign-in; without
 * it, the console's own user list (a console account matched by subject or user name).
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
      checks: ["pkce", "state"],
      profile(profile: Record<string, unknown>) {
        const name = usernameFromClaims(profile) ?? String(profile.sub);
        return { id: String(profile.sub), name, email: typeof profile.email === "string" ? profile.email : null };
      },
    },
  ];
}

async function findOidcUser(subject: string, username: string, includeDisabled = false): Promise<OidcUserRow | null> {
  const db = await requestDatabase();
  const [row] = await db.sql.query<OidcUserRow>(
    `SELECT id, username, role, disabled_at IS NOT NULL AS disabled FROM console.users
      WHERE ($3 OR disabled_at IS NULL) AND (oidc_subject = $1 OR (oidc_subject IS NULL AND username = $2))
      ORDER BY oidc_subject IS NULL LIMIT 1`,
    [subject, username, includeDisabled],
  );
  return row ?? null;
}

export function authOptions(env: NodeJS.ProcessEnv = process.env): NextAuthOptions {
  return {
    secret: env.NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: ABSOLUTE_LIFETIME_MS / 1000 },
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
          const db = await requestDatabase();
          const request = await currentRequest();
          const result = await signInWithPassword(
            db.sql,
            String(credentials?.username ?? ""),
            String(credentials?.password ?? ""),
            request,
            {
              code: typeof credentials?.code === "string" ? credentials.code.slice(0, 40) : undefined,
              // A security key's answer (lib/auth/security-keys.ts checks its form): a few hundred bytes.
              assertion:
                typeof credentials?.assertion === "string" && credentials.assertion.length <= 16_000 ? credentials.assertion : undefined,
            },
          );
          if (!result.ok) {
            // Raised inside authorize(), next-auth hands the message to the sign-in form as `error`.
            if (result.reason === "throttled") throw new Error(throttledCode(result.scope, result.retryAfterSeconds));
            if (result.reason === "directory_unavailable") throw new Error("DirectoryUnavailable");
            if (result.reason === "no_console_group") throw new Error("NoConsoleGroup");
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
      async signIn({ account, user, profile }) {
        if (account?.provider !== "oidc") return true;
        const claims = (profile ?? {}) as Record<string, unknown>;
        const subject = String(claims.sub ?? user.id);
        const username = usernameFromClaims(claims);
        const db = await requestDatabase();
        const request = await currentRequest();
        const refuse = async (errorCode: string, userId?: number) => {
          await db.sql.transaction(async (tx) => {
            // Out of every group that gives a role: their sessions end too.
            if (userId) await updateUser(tx, userId, {});
            await audit(tx, {
              action: "auth.sign_in",
              result: "refused",
              errorCode,
              actor: { username: username ?? `oidc:${subject}`, clientAddress: request.clientAddress },
              input: { method: "oidc" },
            });
          });
          return false;
        };
        const roles = readOidcRoles(env);
        if (roles) {
          if (!username) return refuse("no_console_username");
          const existing = await findOidcUser(subject, username, true);
          if (existing?.disabled) return refuse("disabled");
          const role = roleFromClaims(roles, claims);
          if (!role) return refuse("not_in_console_group", existing?.id);
          const displayName = typeof claims.name === "string" ? claims.name.slice(0, 200) : null;
          await provisionedUser(
            db.sql,
            { username, role, displayName, source: { kind: "identity provider", oidcSubject: subject } },
            existing,
          );
          return true;
        }
        const row = await findOidcUser(subject, username ?? "");
        if (!row) return refuse("no_console_account");
        return true;
      },
      async jwt({ token, user, account }) {
        if (!user) return token;
        if (account?.provider === "oidc") {
          const row = await findOidcUser(String(user.id), String(user.name ?? ""));
          if (!row) return token;
          const db = await requestDatabase();
          const request = await currentRequest();
          const sid = await db.sql.transaction(async (tx) => {
            const id = await openSession(tx, row.id, request);
            await audit(tx, {
              action: "auth.sign_in",
              result: "ok",
              actor: {
                userId: row.id,
                username: row.username,
                role: row.role as "admin",
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
}
