// `npm run user -- add NAME --role ROLE [--display-name TEXT] [--password-env VAR]`
// `npm run user -- passwd NAME [--password-env VAR]`      `npm run user -- list`
// `npm run user -- reset-second-factor NAME` (a lost phone or security key, when no administrator can sign in)
// For the first admin of a new installation and for recovery. The password comes from the named
// environment variable or from standard input, never from the command line (it would show in ps).
import { userInfo } from "node:os";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { english } from "../lib/actions/message";
import { audit } from "../lib/audit/log";
import { passwordProblem } from "../lib/auth/password-policy";
import { isRole, ROLES } from "../lib/auth/roles";
import { readConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import type { ConsoleExecutor } from "../lib/db/driver";
import { exitOnStartupError, StartupError } from "../lib/db/errors";
import { migrate } from "../lib/db/migrations";
import { recordNotice } from "../lib/users/notice-store";
import { usernameSchema } from "../lib/users/schemas";
import { insertUser, listUserRecords, removeSecondFactors, updateUser } from "../lib/users/store";

async function readPassword(envName: string | undefined): Promise<string> {
  if (envName) {
    const value = process.env[envName];
    if (value === undefined) throw new StartupError(`the environment variable ${envName} is not set`);
    return value;
  }
  if (process.stdin.isTTY) return promptHidden("Password (not shown): ");
  const rl = createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  throw new StartupError("no password on standard input (or use --password-env VAR)");
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(prompt: string): Promise<string> {
  process.stderr.write(prompt);
  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve) => {
    let typed = "";
    stdin.on("data", (chunk: Buffer) => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n") {
          stdin.setRawMode(false);
          stdin.pause();
          process.stderr.write("\n");
          resolve(typed);
          return;
        }
        if (ch === "\u0003") process.exit(130);
        typed = ch === "\u007f" ? typed.slice(0, -1) : typed + ch;
      }
    });
  });
}

/** The id of the user named `username`; none is an error of the command. */
async function existingUserId(tx: ConsoleExecutor, username: string): Promise<number> {
  const [row] = await tx.query<{ id: number }>("SELECT id FROM console.users WHERE username = $1", [username]);
  if (!row) throw new StartupError(`there is no user ${username}`);
  return row.id;
}

/** The same rules as the admin's form (lib/auth/password-policy.ts): length, and not common or guessable. */
async function checkedPassword(password: string, userInputs: (string | null | undefined)[]): Promise<string> {
  const problem = await passwordProblem(password, userInputs);
  if (problem) throw new StartupError(english(problem));
  return password;
}

try {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { role: { type: "string" }, "password-env": { type: "string" }, "display-name": { type: "string" } },
  });
  const [command, rawName] = positionals;
  const actor = { username: `cli:${userInfo().username}`, clientAddress: "command line" };
  const db = await openDatabase(readConfig());
  try {
    await migrate(db.direct);
    if (command === "list") {
      for (const user of await listUserRecords(db.sql)) {
        console.log(`${user.username.padEnd(24)} ${user.role.padEnd(9)} ${user.disabled ? "disabled" : "active"}`);
      }
    } else if (command === "add" || command === "passwd") {
      const parsedName = usernameSchema.safeParse(rawName ?? "");
      if (!parsedName.success) throw new StartupError(parsedName.error.issues[0].message);
      const username = parsedName.data;
      if (command === "add") {
        if (!isRole(values.role)) throw new StartupError(`--role must be one of ${ROLES.join(", ")}`);
        const role = values.role;
        const password = await checkedPassword(await readPassword(values["password-env"]), [username, values["display-name"]]);
        await db.sql.transaction(async (tx) => {
          const id = await insertUser(tx, { username, role, password, displayName: values["display-name"] ?? null });
          if (!id) throw new StartupError(`the user ${username} already exists`);
          await audit(tx, { action: "user.create", result: "ok", actor, input: { username, role, userId: id } });
        });
        console.log(`Added ${username} (${role}).`);
      } else {
        const [existing] = await db.sql.query<{ display_name: string | null }>(
          "SELECT display_name FROM console.users WHERE username = $1",
          [username],
        );
        const password = await checkedPassword(await readPassword(values["password-env"]), [username, existing?.display_name]);
        await db.sql.transaction(async (tx) => {
          const userId = await existingUserId(tx, username);
          await updateUser(tx, userId, { password });
          await audit(tx, { action: "user.set_password", result: "ok", actor, input: { userId } });
          await recordNotice(tx, userId, "password_set", actor);
        });
        console.log(`Changed the password of ${username}; their sessions were ended.`);
      }
    } else if (command === "reset-second-factor") {
      await db.sql.transaction(async (tx) => {
        const userId = await existingUserId(tx, rawName ?? "");
        if ((await removeSecondFactors(tx, userId)) === 0) throw new StartupError(`${rawName} has no two-step sign-in to reset`);
        await audit(tx, { action: "user.second_factor.reset", result: "ok", actor, input: { userId } });
        await recordNotice(tx, userId, "second_factor_reset", actor);
      });
      console.log(`Reset the two-step sign-in of ${rawName} (app and security keys); their sessions were ended.`);
    } else {
      throw new StartupError(
        "usage: npm run user -- add NAME --role ROLE [--password-env VAR] | passwd NAME [--password-env VAR] | reset-second-factor NAME | list",
      );
    }
  } finally {
    await db.close();
  }
} catch (error) {
  if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS"))
    exitOnStartupError(new StartupError((error as Error).message), "user");
  exitOnStartupError(error, "user");
}
