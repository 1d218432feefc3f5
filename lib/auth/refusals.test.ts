import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testBackends } from "../../testing/databases";
import { actAs, anonymous, signedInAs } from "../../testing/sessions";
import { listAudit } from "../audit/query";
import type { Database } from "../db/client";
import { LIMITED_LINES } from "../log";
import { listRequests } from "../requests/read";
import { AccessError } from "./guard";
import { endSession } from "./sessions";

// Refusals of people who are not signed in cost the audit log nothing (anyone could send a flood of
// them) and the log a few lines a minute; a signed-in person's refusal is audited.
describe.each(testBackends())("refusals on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
  });
  afterAll(() => drop());

  const auditRows = async () => (await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM console.audit_log"))[0].n;
  const refused = (work: Promise<unknown>) => expect(work).rejects.toBeInstanceOf(AccessError);

  it("writes no audit row for a flood of anonymous refusals, and logs only a few of them", async () => {
    // A new window of the log's allowance (other tests in this process may have used it).
    (globalThis as Record<symbol, Map<string, unknown> | undefined>)[Symbol.for("registry-state-console.log-windows")]?.clear();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const before = await auditRows();
      for (let i = 0; i < 200; i++) await refused(actAs(anonymous(db), () => listRequests({})));
      // A session that has ended is no one's either.
      const support = await signedInAs(db, "support");
      await endSession(db.sql, support.claims?.sid as string, "signed_out");
      await refused(actAs(support, () => listRequests({})));
      expect(await auditRows()).toBe(before);
      const lines = warn.mock.calls.map(([line]) => String(line)).filter((line) => line.startsWith("access.denied:"));
      expect(lines).toHaveLength(LIMITED_LINES);
      expect(lines[0]).toBe(
        'access.denied: refused code="unauthenticated" attempted="requests.list" permission="registry.read" client="198.51.100.7"',
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("audits a signed-in person's refusal", async () => {
    const support = await signedInAs(db, "support");
    const before = await auditRows();
    await refused(actAs(support, () => listAudit({})));
    expect(await auditRows()).toBe(before + 1);
    const [row] = await db.sql.query<{ action: string; actor: string; error_code: string; client_address: string }>(
      "SELECT action, actor, error_code, client_address FROM console.audit_log ORDER BY id DESC LIMIT 1",
    );
    expect(row).toEqual({
      action: "access.denied",
      actor: expect.stringMatching(/^support-/),
      error_code: "forbidden",
      client_address: "198.51.100.7",
    });
  });
});
