import type { DirectDriver } from "../db/driver";

/**
 * Puts an adopted FRED registry into mode beside, as the real move does (issue 40; to be replaced by
 * `db:adopt -- --mode beside` when it exists): FRED's own update_object_states(integer) restored from
 * console.replaced_fred_objects, FRED's disabled triggers enabled, the console's console_* triggers on
 * FRED's tables dropped, the mode set, and the change feed's poller started at that instant. One
 * transaction, as the owner.
 */
export async function putBeside(owner: DirectDriver): Promise<void> {
  await owner.transaction(async (tx) => {
    const replaced = await tx.query<{ kind: string; name: string; definition: string }>(
      "SELECT kind, name, definition FROM console.replaced_fred_objects WHERE kind = 'trigger' OR name = 'update_object_states(integer)'",
    );
    for (const r of replaced) {
      if (r.kind === "function") await tx.exec(r.definition);
      else await tx.exec(`ALTER TABLE ${r.definition} ENABLE TRIGGER "${r.name.replaceAll('"', '""')}"`);
    }
    const triggers = await tx.query<{ name: string; tbl: string }>(
      `SELECT t.tgname AS name, t.tgrelid::regclass::text AS tbl FROM pg_trigger t
         JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE NOT t.tgisinternal AND n.nspname = 'public' AND t.tgname LIKE 'console\\_%'`,
    );
    for (const t of triggers) await tx.exec(`DROP TRIGGER "${t.name}" ON ${t.tbl}`);
    await tx.query("UPDATE console.registry_origin SET mode = 'beside', mode_since = now()");
    await tx.query("SELECT console.fred_feed_start()");
  });
}
