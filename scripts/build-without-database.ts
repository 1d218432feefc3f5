// The production build as `npm test` makes it, and the proof that a build never opens a database: it
// runs with DATABASE_URL pointing at a port where nothing listens and PGLITE_DIR at a directory that
// does not exist, and fails if the build did not succeed or the embedded database was created.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { NEXT_BIN } from "./next-server";

const scratch = mkdtempSync(path.join(tmpdir(), "rsc-build-"));
const pgliteDir = path.join(scratch, "pglite");
try {
  for (const [what, databaseUrl] of [
    ["the embedded database", ""],
    ["an unreachable PostgreSQL", "postgresql://console@127.0.0.1:9/no_database_at_build_time"],
  ] as const) {
    console.log(`next build with ${what} configured (${databaseUrl || `PGLITE_DIR=${pgliteDir}`})`);
    const build = spawnSync(process.execPath, [NEXT_BIN, "build"], {
      stdio: "inherit",
      env: { ...process.env, DATABASE_URL: databaseUrl, PGLITE_DIR: pgliteDir },
    });
    if (build.status !== 0) {
      console.error(`The production build failed with ${what} configured: a build must not need a database.`);
      process.exit(build.status ?? 1);
    }
    if (existsSync(pgliteDir)) {
      console.error(`The production build opened the embedded database (${pgliteDir} was created): a build must not touch a database.`);
      process.exit(1);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
