import { randomBytes } from "node:crypto";
import { english } from "../actions/message";
import { audit } from "../audit/log";
import type { SqlDriver } from "../db/driver";
import { StartupError } from "../db/errors";
import { countUsers, insertUser } from "../users/store";
import { passwordProblem } from "./password-policy";
import { randomPassword } from "./passwords";

const MIN_SECRET_LENGTH = 32;

type Env = Record<string, string | undefined>;

/**
 * The key that signs session cookies. Production (PostgreSQL, several instances) must set
 * NEXTAUTH_SECRET, the same on every instance; the embedded database keeps a generated one.
 */
export async function ensureAuthSecret(db: SqlDriver, env: Env = process.env): Promise<void> {
  const configured = env.NEXTAUTH_SECRET ?? env.AUTH_SECRET;
  if (configured) {
    if (configured.length < MIN_SECRET_LENGTH) {
      throw new StartupError(
        `NEXTAUTH_SECRET is too short (${configured.length} characters; at least ${MIN_SECRET_LENGTH}). Generate one with: openssl rand -base64 32`,
      );
    }
    env.NEXTAUTH_SECRET = configured;
    return;
  }
  if (db.kind !== "pglite") {
    throw new StartupError(
      "NEXTAUTH_SECRET is not set. On PostgreSQL every console instance must sign sessions with the same secret: generate one with `openssl rand -base64 32` and set NEXTAUTH_SECRET.",
    );
  }
  // Of two processes starting at once, the first one's secret is kept and both use it.
  const key = "nextauth_secret";
  await db.prisma.setting.createMany({ data: [{ key, value: randomBytes(32).toString("base64") }], skipDuplicates: true });
  env.NEXTAUTH_SECRET = (await db.prisma.setting.findUniqueOrThrow({ where: { key } })).value;
}

/**
 * A new installation has no users. The embedded console creates `admin` with the password from
 * CONSOLE_ADMIN_PASSWORD or a random one printed once; on PostgreSQL the operator creates the
 * first admin with `npm run user`.
 */
export async function ensureFirstAdmin(
  db: SqlDriver,
  env: Env,
  log: (line: string) => void,
  announce: (block: string) => void = () => {},
): Promise<void> {
  if ((await countUsers(db)) > 0) return;
  if (db.kind !== "pglite") {
    log("No console users yet: create the first admin with `npm run user -- add NAME --role admin`.");
    return;
  }
  const given = env.CONSOLE_ADMIN_PASSWORD;
  const problem = given === undefined ? null : await passwordProblem(given, ["admin", "Administrator"]);
  if (problem) throw new StartupError(`CONSOLE_ADMIN_PASSWORD is not acceptable: ${english(problem)}`);
  const password = given ?? randomPassword();
  await db.transaction(async (tx) => {
    const id = await insertUser(tx, { username: "admin", displayName: "Administrator", role: "admin", password });
    await audit(tx, {
      action: "user.create",
      result: "ok",
      actor: { username: "system", clientAddress: null },
      input: { username: "admin", role: "admin", userId: id },
    });
  });
  log(
    given === undefined
      ? `Created the console user "admin" with the password ${password} (shown only this once; change it under Users).`
      : `Created the console user "admin" with the password from CONSOLE_ADMIN_PASSWORD.`,
  );
  // A generated password also goes to the terminal as plain text, framed, so that it is not lost in
  // a line of the JSON log.
  if (given === undefined) announce(firstAdminBanner(password));
}

/** The first admin's generated password as a framed block of plain lines, for the terminal. */
export function firstAdminBanner(password: string): string {
  const lines = [
    "First sign-in to the console:",
    `  user name  admin`,
    `  password   ${password}`,
    "Shown only this once: change it under Users.",
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const rule = "-".repeat(width + 4);
  return [rule, ...lines.map((l) => `| ${l.padEnd(width)} |`), rule, ""].join("\n");
}
