import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testBackends } from "../../testing/databases";
import { createDomain, createObject, registryAt, TYPE } from "../../testing/registry";
import { actAs, anonymous, signedInAs } from "../../testing/sessions";
import { startSmtp } from "../../testing/smtp";
import { english, InputError } from "../actions/result";
import type { RequestContext } from "../auth/request-context";
import type { Database } from "../db/client";
import { readStateChanges, sequenceStateChanges } from "../feed";
import { mailSettled } from "../mail";
import { blockObject } from "../requests/block";
import { bulkStateChange } from "../requests/bulk";
import { changeBlock } from "../requests/change-block";
import { createStateRequest } from "../requests/create";
import { createApiToken } from "../tokens";
import { caseKindChoices, casesAttention, listCases, openCase, registryToday, reviewCase } from "./cases";
import { caseRecordCsv } from "./detail";
import { caseKindsAdmin, retireCaseKind, saveCaseKind } from "./kinds";
import { sendReminders } from "./mail";
import {
  approveBatch,
  approveChange,
  editChange,
  endCase,
  makeChange,
  pendingChanges,
  proposeChange,
  rejectChange,
  submitLift,
  submitMake,
  withdrawChange,
} from "./pending";
import { addApprovalRule, removeApprovalRule } from "./policy";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The English text of the refusal `work` ends in (it must end in one). */
async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return english((error as InputError).text);
}

describe.each(testBackends())("cases and four-eyes approval on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let alice: RequestContext; // operator
  let bob: RequestContext; // operator
  let support: RequestContext;
  let admin: RequestContext;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, new Date(), async (tx) => {
      const holder = await createObject(tx, TYPE.contact, "CASE-HOLDER", "2020-01-01T00:00:00Z");
      for (const name of [
        "phish-1.cz",
        "phish-2.cz",
        "phish-3.cz",
        "race.cz",
        "gone.cz",
        "open.cz",
        "late.cz",
        "end-1.cz",
        "end-2.cz",
        "end-3.cz",
        "bulk-1.cz",
        "bulk-2.cz",
        "bulk-3.cz",
        "ending.cz",
        "mailed.cz",
        "changed.cz",
        "lifted.cz",
        "reminded.cz",
        "page-1.cz",
        "page-2.cz",
        "edited.cz",
      ])
        ids[name] = await createDomain(tx, { name, crdate: "2021-01-01T00:00:00Z", exdate: "2030-01-01", registrant: holder, nsset: null });
    }));
    alice = await signedInAs(db, "operator", "alice");
    bob = await signedInAs(db, "operator", "bob");
    support = await signedInAs(db, "support", "sam");
    admin = await signedInAs(db, "admin", "ada");
  });
  afterAll(() => drop());

  const openCourtCase = async (reference: string) =>
    (await actAs(alice, () => openCase({ kind: "court_order", reference, requestedBy: "District court Brno", reviewBy: "" }))).caseId;
  const states = async (name: string) =>
    (
      await db.sql.query<{ name: string }>(
        `SELECT s.name FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
          WHERE os.object_id = $1 AND os.valid_to IS NULL AND s.manual ORDER BY s.id`,
        [ids[name]],
      )
    ).map((r) => r.name);
  const requestsOf = async (name: string) =>
    db.sql.query<{ id: number; reason: string | null }>(
      `SELECT r.id, rr.reason_creation AS reason FROM object_state_request r
         LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id WHERE r.object_id = $1 ORDER BY r.id`,
      [ids[name]],
    );

  it("opens a case, refuses bad input with a message and changes nothing, and lets support read but not open cases", async () => {
    const caseId = await openCourtCase("3 C 45/2026");
    expect(await refusal(actAs(alice, () => openCase({ kind: "court_order", reference: "", requestedBy: "x" })))).toBe(
      "Give the order's or ticket's reference.",
    );
    expect(await refusal(actAs(alice, () => openCase({ kind: "dream", reference: "1", requestedBy: "x" })))).toBe(
      "There is no kind of case “dream”.",
    );
    expect(
      await refusal(actAs(alice, () => openCase({ kind: "csirt", reference: "1", requestedBy: "x", reviewBy: "2020-01-01" }))),
    ).toMatch(/^The review date 2020-01-01 has passed/);
    await expect(actAs(support, () => openCase({ kind: "csirt", reference: "1", requestedBy: "x" }))).rejects.toThrow();
    // One form sent twice at once: one case.
    const key = randomUUID();
    const twice = await Promise.all(
      [1, 2].map(() => actAs(alice, () => openCase({ kind: "csirt", reference: "twice", requestedBy: "x", idempotencyKey: key }))),
    );
    expect(twice[0].caseId).toBe(twice[1].caseId);
    const cases = await actAs(support, () => listCases());
    expect(cases.filter((c) => c.reference === "3 C 45/2026").map((c) => c.id)).toEqual([caseId]);
    expect(cases.some((c) => c.reference === "1")).toBe(false);
    // A review records who looked, what they found and the next date.
    const next = new Date(Date.now() + 30 * DAY).toISOString().slice(0, 10);
    await actAs(bob, () => reviewCase({ caseId, note: "order still in force", nextReview: next }));
    const [row] = await db.sql.query<{ review_by: string }>("SELECT review_by::text FROM console.cases WHERE id = $1", [caseId]);
    expect(row.review_by).toBe(next);
    const events = await db.sql.query<{ event: string; actor: string }>(
      "SELECT event, actor FROM console.case_events WHERE case_id = $1 ORDER BY id",
      [caseId],
    );
    expect(events).toEqual([
      { event: "opened", actor: "alice" },
      { event: "reviewed", actor: "bob" },
    ]);
  });

  it("holds back what the policy says: a block in a court-order case waits for a second person, who is never its proposer, and carries the case's reference into FRED's reason row", async () => {
    // Only administrators set the policy.
    await expect(
      actAs(alice, () => addApprovalRule({ state: "serverBlocked", change: "make", caseKind: "court_order" })),
    ).rejects.toThrow();
    const { ruleId } = await actAs(admin, () => addApprovalRule({ state: "serverBlocked", change: "make", caseKind: "court_order" }));
    expect(await refusal(actAs(admin, () => addApprovalRule({ state: "serverBlocked", change: "make", caseKind: "court_order" })))).toBe(
      "This rule is already in force.",
    );
    expect(await refusal(actAs(admin, () => addApprovalRule({ state: "outzone", change: "any", caseKind: "any" })))).toMatch(
      /^outzone is not a manual state/,
    );
    const caseId = await openCourtCase("7 T 12/2026");
    try {
      // Made at once, it is refused: the policy gives it to a second person (the bulk change and the
      // object page's form go the same way).
      await actAs(admin, () => addApprovalRule({ state: "serverBlocked", change: "make", caseKind: "any" }));
      expect(await refusal(actAs(alice, () => blockObject({ objectId: ids["phish-1.cz"], reason: "phishing" })))).toBe(
        "Making serverBlocked on phish-1.cz needs a second person's approval: propose it, and another person approves it.",
      );
      const batchId = randomUUID();
      const proposed: Awaited<ReturnType<typeof proposeChange>>[] = [];
      for (const name of ["phish-1.cz", "phish-2.cz"])
        proposed.push(
          await actAs(alice, () =>
            proposeChange({ command: "block.create", caseId, batchId, input: { objectId: ids[name], reason: "phishing site" } }),
          ),
        );
      expect(english(proposed[0].message)).toMatch(
        /^Change \d+ waits for a second person's approval: phish-1\.cz blocked from now with no end/,
      );
      // Nothing reached FRED's tables.
      expect(await states("phish-1.cz")).toEqual([]);
      expect(await requestsOf("phish-1.cz")).toEqual([]);
      // Its proposer cannot approve it; support cannot either.
      const waiting = await actAs(alice, () => pendingChanges({ caseId }));
      expect(waiting.map((p) => [p.object, p.mayApprove])).toEqual([
        ["phish-1.cz", false],
        ["phish-2.cz", false],
      ]);
      expect(await refusal(actAs(alice, () => approveChange({ pendingId: proposed[0].pendingId, version: 1 })))).toBe(
        `Change ${proposed[0].pendingId} is your own proposal: another person must approve it.`,
      );
      await expect(actAs(support, () => approveChange({ pendingId: proposed[0].pendingId, version: 1 }))).rejects.toThrow();
      // A second operator approves: the block is in force, with the case's reference in FRED's reason rows.
      const approved = await actAs(bob, () => approveChange({ pendingId: proposed[0].pendingId, version: 1 }));
      expect(english(approved.message)).toMatch(/^Change \d+ approved and applied: Block \d+: phish-1\.cz blocked from now/);
      expect(await states("phish-1.cz")).toEqual(expect.arrayContaining(["serverBlocked", "serverDeleteProhibited"]));
      const reasons = (await requestsOf("phish-1.cz")).map((r) => r.reason);
      expect(reasons.length).toBeGreaterThan(1);
      for (const reason of reasons) expect(reason).toBe(`Case ${caseId} (7 T 12/2026): phishing site`);
      const [meta] = await db.sql.query<{ author: string; approved_by: string; case_id: number }>(
        `SELECT m.author, m.approved_by, m.case_id FROM console.request_meta m JOIN console.blocks b ON b.id = m.block_id
          WHERE b.object_id = $1 LIMIT 1`,
        [ids["phish-1.cz"]],
      );
      expect(meta).toEqual({ author: "alice", approved_by: "bob", case_id: caseId });
      // Rejected, it changes nothing; a decided change cannot be decided again.
      await actAs(bob, () => rejectChange({ pendingId: proposed[1].pendingId, reason: "wrong domain" }));
      expect(await states("phish-2.cz")).toEqual([]);
      expect(await refusal(actAs(bob, () => approveChange({ pendingId: proposed[1].pendingId, version: 1 })))).toMatch(
        /^Change \d+ was already rejected by bob on /,
      );
      // The case's record: every step, in order.
      const events = await db.sql.query<{ event: string; actor: string }>(
        "SELECT event, actor FROM console.case_events WHERE case_id = $1 ORDER BY id",
        [caseId],
      );
      expect(events.map((e) => `${e.event} ${e.actor}`)).toEqual([
        "opened alice",
        "proposed alice",
        "proposed alice",
        "approved bob",
        "made bob",
        "rejected bob",
      ]);
      // The record an authority reads without the console: the case, what was made, every step, in the registry's zone.
      const csv = (await actAs(support, () => caseRecordCsv(caseId))) as string;
      const rows = csv.trim().split("\r\n");
      expect(rows[0]).toBe("record,case,kind,reference,requested_by,review_by,status,opened_by,opened_at,ended_by,ended_at");
      expect(rows[1]).toMatch(
        new RegExp(
          `^case,${caseId},Court order,7 T 12/2026,District court Brno,,open,alice,\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\+0[12]:00,,$`,
        ),
      );
      expect(rows.filter((r) => r.startsWith("item,phish-1.cz,domain,block "))).toHaveLength(1);
      expect(rows.filter((r) => r.startsWith("step,")).map((r) => r.split(",")[3])).toEqual([
        "opened",
        "proposed",
        "proposed",
        "approved",
        "made",
        "rejected",
      ]);
      expect(rows.find((r) => r.includes(",rejected,"))).toContain("wrong domain");
    } finally {
      await actAs(admin, () => removeApprovalRule({ ruleId }));
      await db.sql.query("DELETE FROM console.approval_rules");
    }
  });

  it("applies a change once when two people approve it at the same moment", async () => {
    const caseId = await openCourtCase("race");
    const { pendingId } = await actAs(alice, () =>
      proposeChange({
        command: "request.create",
        caseId,
        input: { objectId: ids["race.cz"], state: "serverOutzoneManual", reason: "CSIRT" },
      }),
    );
    const carol = await signedInAs(db, "operator", "carol");
    const outcomes = await Promise.allSettled([
      actAs(bob, () => approveChange({ pendingId, version: 1 })),
      actAs(carol, () => approveChange({ pendingId, version: 1 })),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(english((refused.reason as InputError).text)).toMatch(/^Change \d+ was already approved and applied by (bob|carol) on /);
    expect((await requestsOf("race.cz")).map((r) => r.reason)).toEqual([`Case ${caseId} (race): CSIRT`]);
    expect(await states("race.cz")).toEqual(["serverOutzoneManual"]);
    // The state change feed names the case of the request behind the change.
    const { token } = await actAs(admin, () => createApiToken({ name: `cases feed ${randomUUID()}` }));
    await sequenceStateChanges(db.sql);
    const feed = await actAs(anonymous(db), () =>
      readStateChanges(`Bearer ${token}`, { after: "0", states: "serverOutzoneManual", limit: "1000" }),
    );
    expect(feed?.changes.filter((c) => c.objectId === ids["race.cz"])).toEqual([
      expect.objectContaining({ state: "serverOutzoneManual", change: "entered", case: { id: caseId, reference: "race" } }),
    ]);
  });

  it("refuses an approval whose dry run no longer holds, with the reason, and applies nothing", async () => {
    const caseId = await openCourtCase("stale");
    const from = iso(Date.now() + 10 * DAY);
    const { pendingId } = await actAs(alice, () =>
      proposeChange({
        command: "request.create",
        caseId,
        input: { objectId: ids["gone.cz"], state: "serverInzoneManual", from, reason: "keep" },
      }),
    );
    // Its summary is kept with its instant, which is said in the registry's zone as everywhere else.
    const [waiting] = (await actAs(bob, () => pendingChanges())).filter((p) => p.id === pendingId);
    expect(english(waiting.summary)).toMatch(/^serverInzoneManual on gone\.cz from \d{4}-\d\d-\d\d \d\d:\d\d CES?T with no end\.$/);
    // Meanwhile someone keeps the domain out of the zone over the same days: in and out of the zone clash.
    await actAs(bob, () => createStateRequest({ objectId: ids["gone.cz"], state: "serverOutzoneManual", from, reason: "other" }));
    const before = await requestsOf("gone.cz");
    const why = await refusal(actAs(bob, () => approveChange({ pendingId, version: 1 })));
    expect(why).toMatch(new RegExp(`^Change ${pendingId} cannot be applied now, so nothing was done: `));
    expect(await requestsOf("gone.cz")).toEqual(before);
    const [row] = await db.sql.query<{ status: string }>("SELECT status FROM console.pending_changes WHERE id = $1", [pendingId]);
    expect(row.status).toBe("pending");
    // Its proposer withdraws it; no one else may.
    expect(await refusal(actAs(bob, () => withdrawChange({ pendingId })))).toBe(
      `Change ${pendingId} is alice's proposal: only they may withdraw it.`,
    );
    await actAs(alice, () => withdrawChange({ pendingId }));
    expect(
      (await db.sql.query<{ status: string }>("SELECT status FROM console.pending_changes WHERE id = $1", [pendingId]))[0].status,
    ).toBe("withdrawn");
  });

  it("says a proposal whose start passed while it waited is late, and applies it from now only when the approver says so", async () => {
    const { pendingId } = await actAs(alice, () =>
      proposeChange({
        command: "request.create",
        input: { objectId: ids["late.cz"], state: "serverTransferProhibited", from: iso(Date.now() + 2 * DAY), reason: "registrant asks" },
      }),
    );
    // Two days pass unapproved (its start moved into the past, as time would move it).
    await db.sql.query(
      "UPDATE console.pending_changes SET starts_at = now() - interval '1 hour', input = jsonb_set(input, '{from}', to_jsonb((now() - interval '1 hour')::text)) WHERE id = $1",
      [pendingId],
    );
    expect((await actAs(bob, () => pendingChanges())).find((p) => p.id === pendingId)?.late).toBe(true);
    expect(await refusal(actAs(bob, () => approveChange({ pendingId, version: 1 })))).toMatch(
      new RegExp(`^Change ${pendingId} was to start on .*, which passed while it waited: approve it from now, or reject it\\.$`),
    );
    await actAs(bob, () => approveChange({ pendingId, version: 1, fromNow: true }));
    expect(await states("late.cz")).toEqual(["serverTransferProhibited"]);
  });

  it("ends a case by lifting everything it holds (a prohibition a block cut comes back), through approval where the policy asks", async () => {
    // end-1.cz has a prohibition of its own before the case's block cuts it.
    await actAs(bob, () =>
      createStateRequest({ objectId: ids["end-1.cz"], state: "serverTransferProhibited", reason: "registrant's lock" }),
    );
    const caseId = await openCourtCase("end");
    for (const name of ["end-1.cz", "end-2.cz"])
      await actAs(alice, () => makeChange({ command: "block.create", caseId, input: { objectId: ids[name], reason: "seized" } }));
    await actAs(alice, () =>
      makeChange({
        command: "request.create",
        caseId,
        input: { objectId: ids["end-3.cz"], state: "serverOutzoneManual", reason: "seized" },
      }),
    );
    expect(await states("end-1.cz")).toEqual(expect.arrayContaining(["serverBlocked", "serverTransferProhibited"]));
    // Lifting in court-order cases needs a second person: ending proposes the lifts of the blocks.
    const { ruleId } = await actAs(admin, () => addApprovalRule({ state: "serverBlocked", change: "lift", caseKind: "court_order" }));
    try {
      const first = await actAs(alice, () => endCase({ caseId, reason: "order lifted" }));
      expect(english(first.message)).toBe(
        `Case ${caseId}: 1 lifted now; 2 lifts wait for a second person's approval. End the case again once they are approved.`,
      );
      expect(await states("end-3.cz")).toEqual([]);
      expect(await states("end-1.cz")).toContain("serverBlocked");
      expect(await refusal(actAs(alice, () => endCase({ caseId, reason: "again" })))).toBe(
        `Case ${caseId} cannot end yet: 2 lifts wait for approval. End it once they are approved.`,
      );
      for (const p of await actAs(bob, () => pendingChanges({ caseId })))
        await actAs(bob, () => approveChange({ pendingId: p.id, version: 1 }));
      // Lifted as by hand: the prohibition the block cut is in force again, with the case's reason.
      expect(await states("end-1.cz")).toEqual(["serverTransferProhibited"]);
      expect(await states("end-2.cz")).toEqual([]);
      const ended = await actAs(alice, () => endCase({ caseId, reason: "order lifted" }));
      expect(english(ended.message)).toBe(`Case ${caseId} ended; nothing was left to lift.`);
      expect(await refusal(actAs(alice, () => reviewCase({ caseId, note: "late look" })))).toMatch(new RegExp(`^Case ${caseId} ended on `));
      const canceled = await db.sql.query<{ reason: string }>(
        `SELECT rr.reason_cancellation AS reason FROM object_state_request_reason rr JOIN object_state_request r ON r.id = rr.object_state_request_id
          WHERE r.object_id = $1 AND rr.reason_cancellation IS NOT NULL`,
        [ids["end-3.cz"]],
      );
      expect(canceled).toEqual([{ reason: `Case ${caseId} (end): order lifted` }]);
    } finally {
      await actAs(admin, () => removeApprovalRule({ ruleId }));
    }
  });

  it("proposes a bulk block in a case for each object when the policy holds it back, and applies the batch only once", async () => {
    const { ruleId } = await actAs(admin, () => addApprovalRule({ state: "any", caseKind: "court_order", change: "make" }));
    try {
      const caseId = await openCourtCase("bulk");
      const batchId = randomUUID();
      const bulk = (apply: boolean) =>
        actAs(alice, () =>
          bulkStateChange({ names: "bulk-1.cz bulk-2.cz bulk-3.cz", kind: "block", reason: "campaign", apply, batchId, caseId }),
        );
      const dry = await bulk(false);
      expect(dry.outcomes.map((o) => o.message)).toEqual([
        expect.stringMatching(/^Will be proposed for a second person's approval: bulk-1\.cz blocked/),
        expect.stringMatching(/^Will be proposed/),
        expect.stringMatching(/^Will be proposed/),
      ]);
      const applied = await bulk(true);
      expect(applied.message).toBe(`Proposed for all 3 objects: each waits for a second person's approval (batch ${batchId}).`);
      expect(await bulk(true)).toMatchObject({ applied: true, outcomes: [] });
      for (const name of ["bulk-1.cz", "bulk-2.cz", "bulk-3.cz"]) expect(await states(name)).toEqual([]);
      const waiting = await actAs(bob, () => pendingChanges({ caseId }));
      expect(waiting.map((p) => p.object)).toEqual(["bulk-1.cz", "bulk-2.cz", "bulk-3.cz"]);
      // The whole batch at once, by a second person (its proposer's own approval of it is refused).
      expect(await refusal(actAs(alice, () => approveBatch({ batchId })))).toMatch(/is your own proposal/);
      const approved = await actAs(bob, () => approveBatch({ batchId }));
      expect(english(approved.message)).toBe("3 changes approved and applied.");
      for (const name of ["bulk-1.cz", "bulk-2.cz", "bulk-3.cz"]) expect(await states(name)).toContain("serverBlocked");
      expect(await refusal(actAs(bob, () => approveBatch({ batchId })))).toBe("Nothing of this batch waits for approval any more.");
    } finally {
      await actAs(admin, () => removeApprovalRule({ ruleId }));
    }
  });

  it("tells the overview which cases are due for review and which blocks end within a week", async () => {
    const caseId = (
      await actAs(alice, () => openCase({ kind: "csirt", reference: "due", requestedBy: "CSIRT.CZ", reviewBy: registryToday() }))
    ).caseId;
    const later = (
      await actAs(alice, () =>
        openCase({ kind: "csirt", reference: "later", requestedBy: "CSIRT.CZ", reviewBy: registryToday(new Date(Date.now() + 30 * DAY)) }),
      )
    ).caseId;
    const to = iso(Date.now() + 3 * DAY);
    await actAs(alice, () =>
      makeChange({ command: "block.create", caseId, input: { objectId: ids["ending.cz"], to, reason: "takedown" } }),
    );
    const attention = await actAs(support, () => casesAttention());
    expect(attention.dueCases.map((c) => c.id)).toContain(caseId);
    expect(attention.dueCases.map((c) => c.id)).not.toContain(later);
    expect(attention.endingBlocks.filter((b) => b.object === "ending.cz")).toEqual([
      expect.objectContaining({ caseId, ends: new Date(to) }),
    ]);
  });

  it("mails the people who may approve a change that waits (never its proposer, never support), and nothing without SMTP settings", async () => {
    const smtp = await startSmtp();
    try {
      await db.sql.query(
        "UPDATE console.users SET email = username || '@registry.example' WHERE username IN ('alice', 'bob', 'sam', 'ada')",
      );
      // Ada reads the console in Czech: her mail is in Czech.
      await db.sql.query("UPDATE console.users SET locale = 'cs' WHERE username = 'ada'");
      // Without SMTP settings the proposal is made and nothing is sent.
      const silent = await actAs(alice, () =>
        proposeChange({
          command: "request.create",
          input: { objectId: ids["mailed.cz"], state: "serverRenewProhibited", reason: "quiet" },
        }),
      );
      await mailSettled();
      expect(smtp.mails).toEqual([]);
      await actAs(alice, () => withdrawChange({ pendingId: silent.pendingId }));
      vi.stubEnv("SMTP_URL", smtp.url);
      vi.stubEnv("SMTP_FROM", "Registry Console <console@registry.example>");
      const { pendingId } = await actAs(alice, () =>
        proposeChange({
          command: "request.create",
          input: { objectId: ids["mailed.cz"], state: "serverRenewProhibited", reason: "renewals stop" },
        }),
      );
      await mailSettled();
      expect(smtp.mails.flatMap((m) => m.to).sort()).toEqual(["ada@registry.example", "bob@registry.example"]);
      const mail = smtp.mails.find((m) => m.to.includes("bob@registry.example"));
      expect(mail?.text).toContain(`Subject: Change ${pendingId} waits for your approval`);
      expect(mail?.text).toContain(`#${pendingId}, proposed by alice: serverRenewProhibited on mailed.cz from`);
      const czech = smtp.mails.find((m) => m.to.includes("ada@registry.example"));
      expect(czech?.text).toContain("Dobrý den, ada,");
      expect(czech?.text).toContain(`#${pendingId}, navrhl(a) alice: serverRenewProhibited`);
    } finally {
      await db.sql.query("UPDATE console.users SET locale = NULL WHERE username = 'ada'");
      vi.unstubAllEnvs();
      await smtp.close();
    }
  });

  it("keeps a block changed in a case in that case, with its reference in the new reason rows", async () => {
    const caseId = await openCourtCase("kept");
    await actAs(alice, () => makeChange({ command: "block.create", caseId, input: { objectId: ids["changed.cz"], reason: "first" } }));
    const [{ id: blockId }] = await db.sql.query<{ id: number }>("SELECT id FROM console.blocks WHERE object_id = $1", [ids["changed.cz"]]);
    await actAs(alice, () => changeBlock({ blockId, prohibitions: ["serverDeleteProhibited"], reason: "narrower" }));
    const blocks = await db.sql.query<{ case_id: number | null }>("SELECT case_id FROM console.blocks WHERE object_id = $1 ORDER BY id", [
      ids["changed.cz"],
    ]);
    expect(blocks.map((b) => b.case_id)).toEqual(blocks.map(() => caseId));
    expect((await requestsOf("changed.cz")).map((r) => r.reason)).toContain(`Case ${caseId} (kept): narrower`);
  });

  it("lifts from the object's page in the block's own case: proposed when the policy holds lifting back there, with the case's reference", async () => {
    const caseId = await openCourtCase("lift");
    await actAs(alice, () => makeChange({ command: "block.create", caseId, input: { objectId: ids["lifted.cz"], reason: "held" } }));
    const [{ id: blockId }] = await db.sql.query<{ id: number }>("SELECT id FROM console.blocks WHERE object_id = $1", [ids["lifted.cz"]]);
    const { ruleId } = await actAs(admin, () => addApprovalRule({ state: "serverBlocked", change: "lift", caseKind: "court_order" }));
    try {
      const proposed = await actAs(alice, () => submitLift("block.lift", { blockId, reason: "order lifted" }));
      expect(english(proposed.message)).toMatch(/^Change \d+ waits for a second person's approval: lift block \d+ of lifted\.cz/);
      expect(await states("lifted.cz")).toContain("serverBlocked");
      const [p] = (await actAs(bob, () => pendingChanges({ caseId }))).filter((x) => x.object === "lifted.cz");
      await actAs(bob, () => approveChange({ pendingId: p.id, version: 1 }));
      expect(await states("lifted.cz")).toEqual([]);
      const reasons = await db.sql.query<{ reason: string }>(
        `SELECT rr.reason_cancellation AS reason FROM object_state_request_reason rr JOIN console.request_meta m ON m.request_id = rr.object_state_request_id
          WHERE m.block_id = $1`,
        [blockId],
      );
      expect(new Set(reasons.map((r) => r.reason))).toEqual(new Set([`Case ${caseId} (lift): order lifted`]));
    } finally {
      await actAs(admin, () => removeApprovalRule({ ruleId }));
    }
  });

  it("makes a block or request from the object's page in the case its form names, and proposes it when the policy holds back any of its states", async () => {
    const caseId = await openCourtCase("from the page");
    // Made at once in the case: the case's reference in FRED's reason rows, the case in the console's rows.
    await actAs(alice, () => submitMake("block.create", { caseId: String(caseId), objectId: ids["page-1.cz"], reason: "order" }));
    expect(await states("page-1.cz")).toContain("serverBlocked");
    for (const r of await requestsOf("page-1.cz")) expect(r.reason).toBe(`Case ${caseId} (from the page): order`);
    const [block] = await db.sql.query<{ case_id: number }>("SELECT case_id FROM console.blocks WHERE object_id = $1", [ids["page-1.cz"]]);
    expect(block.case_id).toBe(caseId);
    // An empty choice is no case; an unknown or ended case is refused with a message, and nothing is made.
    const from = iso(Date.now() + 3 * DAY);
    await actAs(alice, () =>
      submitMake("request.create", { caseId: "", objectId: ids["page-2.cz"], state: "serverRenewProhibited", from, reason: "no case" }),
    );
    expect((await requestsOf("page-2.cz")).map((r) => r.reason)).toEqual(["no case"]);
    expect(
      await refusal(
        actAs(alice, () =>
          submitMake("request.create", { caseId: "999999", objectId: ids["page-2.cz"], state: "serverUpdateProhibited", reason: "x" }),
        ),
      ),
    ).toBe("There is no case 999999.");
    expect(await requestsOf("page-2.cz")).toHaveLength(1);
    // A rule that holds back one prohibition of a block: the block is proposed, not refused.
    const { ruleId } = await actAs(admin, () =>
      addApprovalRule({ state: "serverTransferProhibited", change: "make", caseKind: "court_order" }),
    );
    try {
      const proposed = await actAs(alice, () =>
        submitMake("block.create", { caseId: String(caseId), objectId: ids["page-2.cz"], reason: "order", idempotencyKey: randomUUID() }),
      );
      expect(english(proposed.message)).toMatch(/^Change \d+ waits for a second person's approval: page-2\.cz blocked from now/);
      expect(await states("page-2.cz")).toEqual([]);
      const [p] = (await actAs(bob, () => pendingChanges({ objectId: ids["page-2.cz"] }))).filter((x) => x.status === "pending");
      expect(p).toMatchObject({ caseId, command: "block.create", state: "serverBlocked", own: false, mayApprove: true });
      await actAs(bob, () => approveChange({ pendingId: p.id, version: p.version }));
      expect(await states("page-2.cz")).toEqual(expect.arrayContaining(["serverBlocked", "serverTransferProhibited"]));
    } finally {
      await actAs(admin, () => removeApprovalRule({ ruleId }));
    }
  });

  it("lets only its proposer edit a waiting change, checks the edit as a proposal, and starts its approval again", async () => {
    const caseId = await openCourtCase("edited");
    const from = iso(Date.now() + 5 * DAY);
    const { pendingId } = await actAs(alice, () =>
      proposeChange({
        command: "request.create",
        caseId,
        input: { objectId: ids["edited.cz"], state: "serverOutzoneManual", from, reason: "first" },
      }),
    );
    // Not another person's; not an older version; not a period that would be refused (and nothing changes).
    expect(await refusal(actAs(bob, () => editChange({ pendingId, version: 1, reason: "mine now" })))).toBe(
      `Change ${pendingId} is alice's proposal: only they may edit it.`,
    );
    expect(await refusal(actAs(alice, () => editChange({ pendingId, version: 2, reason: "x" })))).toMatch(
      new RegExp(`^Change ${pendingId} was edited by its proposer since`),
    );
    expect(
      await refusal(actAs(alice, () => editChange({ pendingId, version: 1, from, to: iso(Date.parse(from) - DAY), reason: "x" }))),
    ).toMatch(/end/i);
    const [before] = await actAs(bob, () => pendingChanges({ objectId: ids["edited.cz"] }));
    expect(before).toMatchObject({ version: 1, editable: { from, to: "", reason: "first" }, own: false });
    // The edit: a new period and reason, its version up; an approval of what was seen before is refused.
    const to = iso(Date.parse(from) + 2 * DAY);
    const edited = await actAs(alice, () => editChange({ pendingId, version: 1, to, reason: "second" }));
    expect(english(edited.message)).toMatch(new RegExp(`^Change ${pendingId} was edited and waits for approval again: `));
    const [after] = await actAs(alice, () => pendingChanges({ objectId: ids["edited.cz"] }));
    expect(after).toMatchObject({ version: 2, editable: { from, to, reason: "second" }, own: true, mayApprove: false });
    expect(await refusal(actAs(bob, () => approveChange({ pendingId, version: 1 })))).toMatch(
      new RegExp(`^Change ${pendingId} was edited by its proposer since you opened it \\(version 2\\)`),
    );
    expect(await requestsOf("edited.cz")).toEqual([]);
    await actAs(bob, () => approveChange({ pendingId, version: 2 }));
    const [request] = await db.sql.query<{ valid_to: Date; reason: string }>(
      `SELECT r.valid_to, rr.reason_creation AS reason FROM object_state_request r
         JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id WHERE r.object_id = $1`,
      [ids["edited.cz"]],
    );
    expect(request.reason).toBe(`Case ${caseId} (edited): second`);
    const events = await db.sql.query<{ event: string; actor: string }>(
      "SELECT event, actor FROM console.case_events WHERE case_id = $1 ORDER BY id",
      [caseId],
    );
    expect(events.map((e) => `${e.event} ${e.actor}`)).toEqual([
      "opened alice",
      "proposed alice",
      "changed alice",
      "approved bob",
      "made bob",
    ]);
    // Decided, it cannot be edited any more.
    expect(await refusal(actAs(alice, () => editChange({ pendingId, version: 2, reason: "third" })))).toMatch(
      /was already approved and applied by bob/,
    );
  });

  it("lets administrators add, rename, move and retire kinds of case; a retired kind is offered for no new case or rule, and its cases keep it", async () => {
    await expect(
      actAs(alice, () => saveCaseKind({ code: "dns_abuse", nameEn: "DNS abuse", nameCs: "Zneužití DNS", position: 7, isNew: true })),
    ).rejects.toThrow();
    await actAs(admin, () => saveCaseKind({ code: "dns_abuse", nameEn: "DNS abuse", nameCs: "Zneužití DNS", position: 7, isNew: true }));
    expect(
      await refusal(actAs(admin, () => saveCaseKind({ code: "dns_abuse", nameEn: "Other", nameCs: "Jiné", position: 1, isNew: true }))),
    ).toBe("There is a kind of case “dns_abuse” already: change it in its row.");
    expect(
      await refusal(actAs(admin, () => saveCaseKind({ code: "DNS abuse", nameEn: "x", nameCs: "x", position: 1, isNew: true }))),
    ).toMatch(/^A kind's code is a lowercase letter/);
    expect(await refusal(actAs(admin, () => saveCaseKind({ code: "x", nameEn: "", nameCs: "x", position: 1, isNew: true })))).toBe(
      "Give the kind's name in English and in Czech.",
    );
    expect(await refusal(actAs(admin, () => saveCaseKind({ code: "nothing", nameEn: "x", nameCs: "x", position: 1 })))).toBe(
      "There is no kind of case “nothing”.",
    );
    const { caseId } = await actAs(alice, () => openCase({ kind: "dns_abuse", reference: "DA-1", requestedBy: "CSIRT.CZ" }));
    await actAs(admin, () => saveCaseKind({ code: "dns_abuse", nameEn: "DNS abuse report", nameCs: "Hlášení zneužití DNS", position: 0 }));
    expect((await actAs(alice, () => caseKindChoices()))[0]).toEqual({ code: "dns_abuse", name: "DNS abuse report" });
    await actAs(admin, () => retireCaseKind({ code: "dns_abuse", retire: true }));
    expect((await actAs(alice, () => caseKindChoices())).map((k) => k.code)).not.toContain("dns_abuse");
    expect(await refusal(actAs(alice, () => openCase({ kind: "dns_abuse", reference: "DA-2", requestedBy: "x" })))).toBe(
      "There is no kind of case “dns_abuse”.",
    );
    expect(await refusal(actAs(admin, () => addApprovalRule({ state: "any", change: "any", caseKind: "dns_abuse" })))).toBe(
      "There is no kind of case “dns_abuse”.",
    );
    // Its case keeps it, by its name.
    expect((await actAs(support, () => listCases())).find((c) => c.id === caseId)?.kindName).toBe("DNS abuse report");
    expect((await actAs(admin, () => caseKindsAdmin())).find((k) => k.code === "dns_abuse")).toMatchObject({ retired: true, cases: 1 });
    await actAs(admin, () => retireCaseKind({ code: "dns_abuse", retire: false }));
    expect((await actAs(alice, () => caseKindChoices())).map((k) => k.code)).toContain("dns_abuse");
    // The last kind offered cannot be retired (no case could be opened).
    const codes = (await actAs(admin, () => caseKindsAdmin())).map((k) => k.code);
    for (const code of codes.slice(1)) await actAs(admin, () => retireCaseKind({ code, retire: true }));
    try {
      expect(await refusal(actAs(admin, () => retireCaseKind({ code: codes[0], retire: true })))).toBe(
        "That is the last kind of case offered: add another before retiring it.",
      );
    } finally {
      for (const code of codes) await actAs(admin, () => retireCaseKind({ code, retire: false }));
    }
  });

  it("reminds a case's owner the day before its review date, and approvers of a change that waited a day, once each", async () => {
    const smtp = await startSmtp();
    vi.stubEnv("SMTP_URL", smtp.url);
    vi.stubEnv("SMTP_FROM", "Registry Console <console@registry.example>");
    try {
      await db.sql.query("UPDATE console.users SET email = username || '@registry.example' WHERE username IN ('alice', 'bob')");
      const tomorrow = registryToday(new Date(Date.now() + DAY));
      const { caseId } = await actAs(alice, () =>
        openCase({ kind: "internal", reference: "remind", requestedBy: "us", reviewBy: tomorrow }),
      );
      const { pendingId } = await actAs(alice, () =>
        proposeChange({
          command: "request.create",
          input: { objectId: ids["reminded.cz"], state: "serverUpdateProhibited", reason: "hold" },
        }),
      );
      await mailSettled();
      smtp.mails.length = 0;
      // A day later, unapproved.
      await db.sql.query("UPDATE console.pending_changes SET proposed_at = proposed_at - interval '25 hours' WHERE id = $1", [pendingId]);
      const first = await sendReminders(db.sql, registryToday());
      await mailSettled();
      expect(first.owners).toBeGreaterThanOrEqual(1);
      expect(first.waiting).toBeGreaterThanOrEqual(1);
      expect(
        smtp.mails.find(
          (m) =>
            m.to.includes("alice@registry.example") && m.text.includes(`Subject: Case ${caseId} (remind) is due for review by ${tomorrow}`),
        ),
      ).toBeTruthy();
      expect(
        smtp.mails.find((m) => m.to.includes("bob@registry.example") && m.text.includes(`#${pendingId}, proposed by alice`)),
      ).toBeTruthy();
      // Once each: the next look finds nothing new.
      smtp.mails.length = 0;
      expect(await sendReminders(db.sql, registryToday())).toEqual({ owners: 0, waiting: 0 });
      await mailSettled();
      expect(smtp.mails).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
      await smtp.close();
    }
  });
});
