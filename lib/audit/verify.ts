import type { SqlExecutor } from "../db/driver";

export interface AuditVerification {
  ok: boolean;
  rows: number;
  /** The first row that does not fit the chain, and how. */
  problem: { id: number; reason: string } | null;
}

/**
 * Recomputes the hash chain of console.audit_log. A changed row no longer matches its hash, a
 * removed row leaves a gap in the ids and a broken link, and a removed last row no longer matches
 * the head. Reads in pages, so it works on years of audit rows.
 */
export async function verifyAuditChain(db: SqlExecutor, pageSize = 5_000): Promise<AuditVerification> {
  let previousHash = "0".repeat(64);
  let previousId = 0;
  let rows = 0;
  for (;;) {
    const page = await db.query<{ id: string; prev_hash: string; hash: string; expected: string }>(
      `SELECT a.id::text AS id, a.prev_hash, a.hash, console.audit_row_hash(a.prev_hash, a) AS expected
         FROM console.audit_log a WHERE a.id > $1 ORDER BY a.id LIMIT $2`,
      [previousId, pageSize],
    );
    for (const row of page) {
      const id = Number(row.id);
      if (id !== previousId + 1) return { ok: false, rows, problem: { id, reason: `rows ${previousId + 1}–${id - 1} are missing` } };
      if (row.prev_hash !== previousHash) return { ok: false, rows, problem: { id, reason: "its link to the previous row is broken" } };
      if (row.hash !== row.expected) return { ok: false, rows, problem: { id, reason: "its content was changed after it was written" } };
      previousHash = row.hash;
      previousId = id;
      rows++;
    }
    if (page.length < pageSize) break;
  }
  const [head] = await db.query<{ last_id: string; last_hash: string }>(
    "SELECT last_id::text AS last_id, last_hash FROM console.audit_head",
  );
  if (!head || Number(head.last_id) !== previousId || head.last_hash !== previousHash) {
    return {
      ok: false,
      rows,
      problem: { id: Number(head?.last_id ?? 0), reason: "the newest rows are missing (the chain ends before its recorded head)" },
    };
  }
  return { ok: true, rows, problem: null };
}
