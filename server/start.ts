import { startAuditAnchoring } from "../lib/audit/anchoring";
import { auditKeyRing } from "../lib/audit/keys";
import { ensureAuthSecret, ensureFirstAdmin } from "../lib/auth/bootstrap";
import { startCaseReminders } from "../lib/cases/mail";
import { type ConsoleConfig, ownerTarget, readConfig } from "../lib/config";
import { type Database, getDatabase, openDatabase } from "../lib/db/client";
import { exitOnStartupError, StartupError } from "../lib/db/errors";
import { prepareDatabase } from "../lib/db/prepare";
import { actAsRuntimeRole, checkRuntimeRole, databaseIdentity, databaseRole } from "../lib/db/roles";
import { startOverviewCounts } from "../lib/overview-counts";
import { applyRegistryTimeZone } from "../lib/states/parameters";
import { startStateScheduler } from "../lib/states/scheduler";
import { loadDemoIfEmpty } from "../prisma/demo/first-start";

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Migrates (and loads demo data) on `db`, then writes REGISTRY_TIMEZONE when the role may. */
async function prepareAsOwner(db: Database, config: ConsoleConfig): Promise<void> {
  const started = performance.now();
  await prepareDatabase(db.direct);
  console.log(`Database checked and migrated in ${seconds(started)}.`);
  await loadDemoIfEmpty(db.direct, config);
  if (process.env.REGISTRY_TIMEZONE) {
    const { owner } = await databaseRole(db.sql);
    await applyRegistryTimeZone(db.sql, config.registryTimeZone, { write: owner, log: console.log, warn: console.warn });
  }
}

/**
 * Runs once when a console server process starts: opens the database, refuses one that is not the
 * console's or whose migrations changed, migrates (as the owner role: DATABASE_OWNER_URL when set),
 * loads demo data into an empty embedded one, checks the running console's role (docs/operating.md
 * "Database roles"), and makes sure sessions can be signed and someone can sign in.
 */
export async function startConsole(): Promise<void> {
  try {
    const config = readConfig();
    // The audit key first: without one (PostgreSQL in production) nothing could be audited, so the
    // console does not start; the embedded console generates its key file here on first start.
    const auditKeys = auditKeyRing(config);
    let ownerIdentity: string | null = null;
    if (config.databaseOwnerUrl) {
      const owner = await openDatabase(ownerTarget(config));
      try {
        await prepareAsOwner(owner, config);
        ownerIdentity = await databaseIdentity(owner.sql);
      } finally {
        await owner.close();
      }
    }
    const db = await getDatabase();
    if (ownerIdentity === null) await prepareAsOwner(db, config);
    else if ((await databaseIdentity(db.sql)) !== ownerIdentity) {
      throw new StartupError(
        `DATABASE_URL (${db.sql.location}) and DATABASE_OWNER_URL do not reach the same database: both must name the console's database, ` +
          "as the runtime role and as the owner role.",
      );
    }
    if (db.sql.kind === "pglite") await actAsRuntimeRole(db.direct);
    else {
      const warning = await checkRuntimeRole(db.sql, config.databaseOwnerUrl !== undefined);
      if (warning) console.warn(`Warning: ${warning}`);
    }
    await ensureAuthSecret(db.sql);
    // The generated first password straight to the terminal too, outside the log's format.
    await ensureFirstAdmin(db.sql, process.env, console.log, (block) => process.stderr.write(block));
    console.log(`Registry State Console is using ${db.sql.location} as ${(await databaseRole(db.sql)).name}.`);
    if (config.stateEngineIntervalSeconds > 0) {
      const scheduler = startStateScheduler(
        async () => (await getDatabase()).sql,
        config.stateEngineIntervalSeconds * 1000,
        undefined,
        undefined,
        config.shadowIntervalMinutes * 60_000,
      );
      // Catch up at once with whatever fell due while no console was running.
      void scheduler.tick();
    }
    // The overview's counts, kept current in the background: no person's request waits for them (issue 41).
    startOverviewCounts(async () => (await getDatabase()).sql, config.registryTimeZone);
    // Reminders by mail (issue 42): reviews coming, changes waiting a day for approval.
    if (config.mail) startCaseReminders(async () => (await getDatabase()).sql);
    // The audit log's anchor, outside the database: at once, after appends and every minute (docs/operating.md "Audit log: keys, anchor and verification").
    if (auditKeys) startAuditAnchoring(async () => (await getDatabase()).sql, auditKeys, config);
    // Next.js says "Ready" when it listens; pages are served once this start-up work is done.
    console.log(
      `The console is ready ${process.uptime().toFixed(1)} s after its process started: the database is prepared and pages are served from now on.`,
    );
  } catch (error) {
    exitOnStartupError(error);
  }
}
