import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as users from "../../app/admin/users/actions";
import * as objectActions from "../../app/objects/[id]/actions";
import * as preferences from "../../app/preferences/actions";
import * as bulk from "../../app/requests/bulk/actions";
import { testBackends } from "../../testing/databases";
import { createDomain, createObject, registryAt, TYPE } from "../../testing/registry";
import { actAs, signedInAs } from "../../testing/sessions";
import type { ActionResult } from "../actions/result";
import type { RequestContext } from "../auth/request-context";
import type { Database } from "../db/client";
import { exportObjects } from "../objects/export";
import { listObjects } from "../objects/list";
import { listRequests } from "../requests/read";

// Hostile input, generated: every server action with arbitrary form fields, and the object and
// request lists with arbitrary URL parameters. Never an unexpected error (the 500 of an action is
// code "error"), never a change when the input is refused. FUZZ_RUNS sets the inputs per target.
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

type Action = (previous: null, form: FormData) => Promise<ActionResult<unknown>>;
const ACTIONS: [string, Action, string[]][] = [
  ["createRequestAction", objectActions.createRequestAction, ["objectId", "state", "from", "to", "reason", "idempotencyKey"]],
  ["previewRequestAction", objectActions.previewRequestAction, ["objectId", "state", "from", "to", "reason"]],
  ["cancelRequestAction", objectActions.cancelRequestAction, ["requestId", "objectId", "reason", "idempotencyKey"]],
  ["blockAction", objectActions.blockAction, ["objectId", "from", "to", "prohibitions", "reason", "idempotencyKey"]],
  ["unblockAction", objectActions.unblockAction, ["blockId", "objectId", "reason"]],
  ["changeBlockAction", objectActions.changeBlockAction, ["blockId", "objectId", "from", "to", "prohibitions", "reason"]],
  [
    "bulkAction",
    bulk.bulkAction as Action,
    ["names", "filter", "type", "kind", "state", "from", "to", "prohibitions", "reason", "apply", "batchId"],
  ],
  ["createUserAction", users.createUserAction, ["username", "displayName", "role", "password"]],
  ["setUserRoleAction", users.setUserRoleAction, ["userId", "role"]],
  ["disableUserAction", users.disableUserAction, ["userId"]],
  ["enableUserAction", users.enableUserAction, ["userId"]],
  ["forceSignOutAction", users.forceSignOutAction, ["userId"]],
  ["allowAccountLinkAction", users.allowAccountLinkAction, ["userId", "allow"]],
  ["setUserPasswordAction", users.setUserPasswordAction, ["userId", "password"]],
  ["changeOwnPasswordAction", preferences.changeOwnPasswordAction, ["currentPassword", "newPassword", "confirmPassword"]],
];
const LIST_KEYS = [
  "type", "q", "match", "registrar", "created_from", "created_to", "expires_from", "expires_to", "deleted", "states", "mode",
  "state_match", "at", "from", "to", "pending", "request_state", "request_from", "request_to", "size", "sort", "dir", "after",
  "before", "last", "page", "jump", "phase", "state", "author", "batch", "upcoming",
]; // biome-ignore format: a list of names

describe.each(testBackends())("hostile input on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let admin: RequestContext;
  let support: RequestContext;
  const known: string[] = [];

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, new Date(), async (tx) => {
      const holder = await createObject(tx, TYPE.contact, "FUZZ-HOLDER", "2020-01-01T00:00:00Z");
      for (const name of ["fuzz-a.cz", "fuzz-b.cz"])
        known.push(
          String(await createDomain(tx, { name, crdate: "2021-01-01T00:00:00Z", exdate: "2030-01-01", registrant: holder, nsset: null })),
        );
      known.push(String(holder), "fuzz-a.cz", "FUZZ-HOLDER");
    }));
    admin = await signedInAs(db, "admin");
    support = await signedInAs(db, "support");
    const [{ id }] = await db.sql.query<{ id: number }>("SELECT max(id) AS id FROM console.users");
    known.push(String(id));
  });
  afterAll(() => drop());

  // Values people and attackers send: empty, blank, numbers out of range, dates that are not,
  // SQL and markup, control characters, every Unicode plane, very long text, and real ids and names.
  const value = () =>
    fc.oneof(
      { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
      { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
      { weight: 2, arbitrary: fc.constantFrom(...known) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          "",
          " ",
          "0",
          "-1",
          "1e309",
          "NaN",
          "99999999999",
          "2026-13-45",
          "2026-11-22T25:61",
          "'; DROP TABLE object_registry; --",
          "<script>alert(1)</script>",
          "\u0000",
          "serverBlocked",
          "outzone",
          "block",
          "request",
          "admin",
          "1",
          "true",
          "all",
        ),
      },
      { weight: 1, arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) },
      { weight: 1, arbitrary: fc.string({ minLength: 2_000, maxLength: 20_000 }) },
    );
  const fields = (names: string[]) =>
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 10 })), value()), { maxLength: 12 });

  /** What a refused input must leave as it was: requests, blocks, users, sessions, audited changes. */
  const fingerprint = async () =>
    JSON.stringify(
      await db.sql.query(
        `SELECT (SELECT count(*) FROM object_state_request) AS requests, (SELECT count(canceled) FROM object_state_request) AS canceled,
                (SELECT count(*) FROM console.blocks) AS blocks, (SELECT count(unblocked_at) FROM console.blocks) AS unblocked,
                (SELECT md5(string_agg(concat_ws(',', id, username, role, disabled_at, password_hash), ';' ORDER BY id)) FROM console.users) AS users,
                (SELECT count(ended_at) FROM console.sessions) AS ended,
                (SELECT count(*) FROM console.audit_log WHERE result = 'ok') AS changes,
                (SELECT count(*) FROM object_state) AS history`,
      ),
    );

  it.each(ACTIONS)(
    "%s: never an unexpected error, never a change when refused",
    async (_name, action, names) => {
      let tried = 0;
      await fc.assert(
        fc.asyncProperty(fields(names), fc.boolean(), async (entries, asSupport) => {
          const form = new FormData();
          for (const [key, text] of entries) form.append(key, text);
          const before = await fingerprint();
          const result = await actAs(asSupport ? support : admin, () => action(null, form));
          tried++;
          expect(result.ok === true || (typeof result.error === "string" && result.error.length > 0)).toBe(true);
          if (!result.ok) {
            expect(result.code, result.error).not.toBe("error");
            expect(await fingerprint()).toBe(before);
          }
        }),
        // Found by this test on PostgreSQL: a NUL character, and an id beyond PostgreSQL's integer.
        {
          numRuns: RUNS,
          examples: [
            [names.map((n) => [n, "x\u0000"] as [string, string]), false],
            [names.map((n) => [n, "99999999999"] as [string, string]), false],
          ],
        },
      );
      expect(tried).toBe(RUNS); // the examples are among the runs
    },
    300_000,
  );

  it("the object list, its CSV export and the requests list: any URL parameters give a page, never an error", async () => {
    const reader = await signedInAs(db, "support"); // the actions above may have signed the other one out
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.oneof(fc.constantFrom(...LIST_KEYS), fc.string({ maxLength: 8 })),
          fc.oneof(value(), fc.array(value(), { maxLength: 3 })),
        ),
        async (params) => {
          const page = await actAs(reader, () => listObjects(params));
          expect(Array.isArray(page.rows)).toBe(true);
          const requests = await actAs(reader, () => listRequests(params));
          expect(Array.isArray(requests.rows)).toBe(true);
          const csv = await actAs(reader, () => exportObjects(params));
          const first = await csv.chunks.next();
          await csv.chunks.return(undefined);
          expect(first.value ?? "").toMatch(/^[^\n]*name[^\n]*\n/);
        },
      ),
      { numRuns: RUNS * 3, examples: [[{ author: ["\u0000"], q: "a\u0000", states: "outzone\u0000" }]] },
    );
  });
});
