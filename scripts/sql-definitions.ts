// `npm run db:definitions`: writes prisma/sql/ (the current text of every function, view and
// trigger the console defines) from a fresh embedded database with every migration applied.
// Run it after adding a migration that changes one; lib/db/definitions.test.ts fails until then.
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "../lib/db/client";
import { currentDefinitions, DEFINITIONS_DIR } from "../lib/db/definitions";
import { migrate } from "../lib/db/migrations";

const dir = await mkdtemp(path.join(tmpdir(), "rsc-definitions-"));
const db = await openDatabase({ databaseUrl: undefined, pgliteDir: path.join(dir, "pglite") });
try {
  await migrate(db.direct);
  const files = await currentDefinitions(db.sql);
  await rm(DEFINITIONS_DIR, { recursive: true, force: true });
  for (const [name, text] of files) {
    await mkdir(path.dirname(path.join(DEFINITIONS_DIR, name)), { recursive: true });
    await writeFile(path.join(DEFINITIONS_DIR, name), text);
  }
  const kinds = await Promise.all(
    ["functions", "views", "triggers"].map(async (k) => `${(await readdir(path.join(DEFINITIONS_DIR, k))).length} ${k}`),
  );
  console.log(`Wrote ${files.size} definitions to ${path.relative(process.cwd(), DEFINITIONS_DIR)}/ (${kinds.join(", ")}).`);
} finally {
  await db.close();
  await rm(dir, { recursive: true, force: true });
}
