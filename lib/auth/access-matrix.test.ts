import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { baseRegistry, createDomain, createObject, TYPE } from "../../testing/registry";
import { actAs, anonymous, signedInAs } from "../../testing/sessions";
import { SoftwareAuthenticator } from "../../testing/software-authenticator";
import { listAudit } from "../audit/query";
import { readConfig } from "../config";
import type { Database } from "../db/client";
import { objectDetail, objectIdByName } from "../objects/detail";
import { exportObjects } from "../objects/export";
import { listObjects } from "../objects/list";
import { listRequests } from "../requests/read";
import { currentStates, objectsInStateAt, stateHistory } from "../states/read";
import { listUsers } from "../users/admin";
import { ownAccount } from "../users/own-password";
import { sessionHandle } from "../users/own-sessions";
import { hashPassword } from "./passwords";
import type { RequestContext } from "./request-context";
import type { Role } from "./roles";
import { newSecret, sealSecret } from "./second-factor";
import { issueChallenge } from "./security-keys";
import { openSession } from "./sessions";

/**
 * Every server action and route handler, who may call it, and a valid input for it. The lists
 * are generated from the source tree: a new action or handler without an entry here fails.
 */
type Caller = "anonymous" | Role;
const CALLERS: Caller[] = ["anonymous", "support", "operator", "admin"];

/** Registry objects the request actions work on. */
interface Fixtures {
  domain: number;
  /** A new future request on the domain, in a slot of its own. */
  futureRequest(): Promise<number>;
  /** A start in a slot of its own, far enough ahead not to overlap anything. */
  freeSlot(): string;
  /** A new domain of its own (blocks are per object). */
  newDomain(): Promise<number>;
  /** A scheduled block on a new domain, made directly in the database. */
  newBlock(): Promise<number>;
  /** An API token of its own, made directly in the database. */
  newToken(): Promise<number>;
  /** Gives `userId` a second factor that is on (made directly in the database). */
  secondFactorOn(userId: number): Promise<void>;
  /** Every caller in the middle of setting up a second factor with one known key: a code from it. */
  secondFactorPending(): Promise<string>;
  /** No caller has a second factor. */
  noSecondFactors(): Promise<void>;
  /** A browser's answer registering a new security key (a software authenticator's). */
  securityKeyRegistration(caller: number): string;
  /** A security key of `userId`, made directly in the database. */
  newSecurityKey(userId: number): Promise<number>;
  /** A new session of `userId` (another browser), by the handle Your account names it with. */
  otherSessionOf(userId: number): Promise<string>;
  /** A new approval rule that holds nothing back in the other tests (made directly in the database). */
  newRule(): Promise<number>;
  /** Two new pending changes proposed together by `userId`: their batch id. */
  newBatch(userId: number): Promise<string>;
  /** A new open case, made directly in the database. */
  newCase(): Promise<number>;
  /** A new pending change (a request on a new domain) proposed by `userId`, made directly in the database. */
  newPending(userId: number): Promise<number>;
}

interface ActionCase {
  allowed: Role[];
  /** A form that would succeed for an allowed caller; `target` is a user the action may change. */
  /** `caller`: the signed-in caller's user id (none when anonymous). */
  form(target: number, fixtures: Fixtures, caller: number | undefined): FormData | Promise<FormData>;
}

const form = (fields: Record<string, string | number>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, String(value));
  return data;
};

let created = 0;
/** The password of the signed-in callers. */
const MATRIX_PASSWORD = "matrix current passphrase";
const ACTIONS: Record<string, ActionCase> = {
  "app/admin/users/actions.ts#createUserAction": {
    allowed: ["admin"],
    form: () => form({ username: `new-user-${++created}`, role: "support", password: "a long enough password" }),
  },
  "app/admin/tokens/actions.ts#createApiTokenAction": { allowed: ["admin"], form: () => form({ name: `matrix client ${randomUUID()}` }) },
  "app/admin/tokens/actions.ts#revokeApiTokenAction": {
    allowed: ["admin"],
    form: async (_, fx) => form({ tokenId: await fx.newToken() }),
  },
  "app/admin/users/actions.ts#setUserRoleAction": { allowed: ["admin"], form: (id) => form({ userId: id, role: "operator" }) },
  "app/admin/users/actions.ts#disableUserAction": { allowed: ["admin"], form: (id) => form({ userId: id }) },
  "app/admin/users/actions.ts#enableUserAction": { allowed: ["admin"], form: (id) => form({ userId: id }) },
  "app/admin/users/actions.ts#forceSignOutAction": { allowed: ["admin"], form: (id) => form({ userId: id }) },
  "app/admin/users/actions.ts#allowAccountLinkAction": { allowed: ["admin"], form: (id) => form({ userId: id, allow: "on" }) },
  "app/admin/users/actions.ts#resetSecondFactorAction": {
    allowed: ["admin"],
    form: async (id, fx) => {
      await fx.secondFactorOn(id);
      return form({ userId: id });
    },
  },
  "app/preferences/actions.ts#startSecondFactorAction": {
    allowed: ["support", "operator", "admin"],
    form: async (_, fx) => {
      await fx.noSecondFactors();
      return form({});
    },
  },
  "app/preferences/actions.ts#confirmSecondFactorAction": {
    allowed: ["support", "operator", "admin"],
    form: async (_, fx) => form({ code: await fx.secondFactorPending(), currentPassword: MATRIX_PASSWORD }),
  },
  "app/preferences/actions.ts#renewRecoveryCodesAction": {
    allowed: ["support", "operator", "admin"],
    form: async (target, fx, caller) => {
      await fx.secondFactorOn(caller ?? target);
      return form({ currentPassword: MATRIX_PASSWORD });
    },
  },
  "app/preferences/actions.ts#removeOwnSecondFactorAction": {
    allowed: ["support", "operator", "admin"],
    form: async (target, fx, caller) => {
      await fx.secondFactorOn(caller ?? target);
      return form({ currentPassword: MATRIX_PASSWORD });
    },
  },
  "app/preferences/actions.ts#setOwnEmailAction": {
    allowed: ["support", "operator", "admin"],
    form: () => form({ email: "matrix@registry.example", currentPassword: MATRIX_PASSWORD }),
  },
  "app/preferences/actions.ts#endOwnSessionAction": {
    allowed: ["support", "operator", "admin"],
    form: async (target, fx, caller) => form({ session: await fx.otherSessionOf(caller ?? target) }),
  },
  "app/preferences/actions.ts#securityKeyOptionsAction": { allowed: ["support", "operator", "admin"], form: () => form({}) },
  "app/preferences/actions.ts#addSecurityKeyAction": {
    allowed: ["support", "operator", "admin"],
    form: (target, fx, caller) =>
      form({ name: "matrix key", response: fx.securityKeyRegistration(caller ?? target), currentPassword: MATRIX_PASSWORD }),
  },
  "app/preferences/actions.ts#removeSecurityKeyAction": {
    allowed: ["support", "operator", "admin"],
    form: async (target, fx, caller) => form({ keyId: await fx.newSecurityKey(caller ?? target), currentPassword: MATRIX_PASSWORD }),
  },
  "app/objects/[id]/actions.ts#createRequestAction": {
    allowed: ["admin", "operator"],
    form: (_, fx) => {
      const from = fx.freeSlot();
      const to = new Date(Date.parse(from) + 86_400_000).toISOString();
      return form({
        objectId: fx.domain,
        state: "serverUpdateProhibited",
        from,
        to,
        reason: "access matrix",
        idempotencyKey: randomUUID(),
      });
    },
  },
  "app/objects/[id]/actions.ts#previewRequestAction": {
    allowed: ["admin", "operator"],
    form: (_, fx) => form({ objectId: fx.domain, state: "serverRegistrantChangeProhibited", from: fx.freeSlot(), reason: "access matrix" }),
  },
  "app/objects/[id]/actions.ts#blockAction": {
    allowed: ["admin", "operator"],
    form: async (_, fx) => {
      const from = fx.freeSlot();
      return form({
        objectId: await fx.newDomain(),
        from,
        to: new Date(Date.parse(from) + 86_400_000).toISOString(),
        reason: "access matrix",
      });
    },
  },
  "app/objects/[id]/actions.ts#changeBlockAction": {
    allowed: ["admin", "operator"],
    form: async (_, fx) => form({ blockId: await fx.newBlock(), prohibitions: "serverDeleteProhibited", reason: "access matrix" }),
  },
  "app/objects/[id]/actions.ts#unblockAction": {
    allowed: ["admin", "operator"],
    form: async (_, fx) => form({ blockId: await fx.newBlock(), reason: "access matrix" }),
  },
  "app/requests/bulk/actions.ts#bulkAction": {
    allowed: ["admin", "operator"],
    form: (_, fx) =>
      form({
        names: "matrix.cz",
        kind: "request",
        state: "serverTransferProhibited",
        from: fx.freeSlot(),
        reason: "access matrix",
        apply: "0",
        batchId: randomUUID(),
      }),
  },
  "app/objects/[id]/actions.ts#cancelRequestAction": {
    allowed: ["admin", "operator"],
    form: async (_, fx) => form({ requestId: await fx.futureRequest(), reason: "access matrix", objectId: fx.domain }),
  },
  "app/admin/approvals/actions.ts#addApprovalRuleAction": {
    allowed: ["admin"],
    form: () => form({ state: "serverRenewProhibited", change: "lift", caseKind: `registrar` }),
  },
  "app/admin/approvals/actions.ts#removeApprovalRuleAction": {
    allowed: ["admin"],
    form: async (_, fx) => form({ ruleId: await fx.newRule() }),
  },
  "app/cases/actions.ts#openCaseAction": {
    allowed: ["admin", "operator"],
    form: () => form({ kind: "csirt", reference: "matrix", requestedBy: "matrix CSIRT", idempotencyKey: randomUUID() }),
  },
  "app/admin/approvals/actions.ts#saveCaseKindAction": {
    allowed: ["admin"],
    form: () => form({ code: `matrix_${++created}`, nameEn: "Matrix", nameCs: "Matice", position: 9, isNew: "1" }),
  },
  "app/admin/approvals/actions.ts#retireCaseKindAction": {
    allowed: ["admin"],
    form: () => form({ code: "internal", retire: "0" }),
  },
  "app/cases/actions.ts#endCaseAction": {
    allowed: ["admin", "operator"],
    form: async (_, fx) => form({ caseId: await fx.newCase(), reason: "access matrix" }),
  },
  "app/cases/actions.ts#reviewCaseAction": {
    allowed: ["admin", "operator"],
    form: async (_, fx) => form({ caseId: await fx.newCase(), note: "access matrix" }),
  },
  "app/cases/actions.ts#caseChangeAction": {
    allowed: ["admin", "operator"],
    form: async (_, fx) => {
      const from = fx.freeSlot();
      const to = new Date(Date.parse(from) + 86_400_000).toISOString();
      return form({
        caseId: await fx.newCase(),
        object: "matrix.cz",
        change: "serverTransferProhibited",
        from,
        to,
        reason: "access matrix",
      });
    },
  },
  "app/cases/actions.ts#approveBatchAction": {
    allowed: ["admin", "operator"],
    form: async (target, fx) => form({ batchId: await fx.newBatch(target) }),
  },
  "app/cases/actions.ts#approveChangeAction": {
    allowed: ["admin", "operator"],
    form: async (target, fx) => form({ pendingId: await fx.newPending(target), version: 1 }),
  },
  "app/cases/actions.ts#rejectChangeAction": {
    allowed: ["admin", "operator"],
    form: async (target, fx) => form({ pendingId: await fx.newPending(target), reason: "access matrix" }),
  },
  "app/cases/actions.ts#editChangeAction": {
    allowed: ["admin", "operator"],
    form: async (target, fx, caller) =>
      form({ pendingId: await fx.newPending(caller ?? target), version: 1, reason: "access matrix, edited" }),
  },
  "app/cases/actions.ts#withdrawChangeAction": {
    allowed: ["admin", "operator"],
    form: async (target, fx, caller) => form({ pendingId: await fx.newPending(caller ?? target) }),
  },
  "app/preferences/actions.ts#setHiddenColumnsAction": {
    allowed: ["support", "operator", "admin"],
    form: () => form({ table: "objects", hidden: "created" }),
  },
  "app/preferences/actions.ts#setLanguageAction": {
    allowed: ["support", "operator", "admin"],
    form: () => form({ locale: "cs" }),
  },
  // Each caller changes their own password once (it is set to MATRIX_PASSWORD before).
  "app/preferences/actions.ts#changeOwnPasswordAction": {
    allowed: ["support", "operator", "admin"],
    form: () =>
      form({ currentPassword: MATRIX_PASSWORD, newPassword: "matrix walnut ferry 2031", confirmPassword: "matrix walnut ferry 2031" }),
  },
  "app/admin/users/actions.ts#setUserPasswordAction": {
    allowed: ["admin"],
    form: (id) => form({ userId: id, password: "another long password" }),
  },
};

/** Route handlers that are public by design, and why. Any other handler must check access itself. */
const PUBLIC_ROUTES: Record<string, string> = {
  "app/api/auth/[...nextauth]/route.ts": "next-auth's sign-in, sign-out and session endpoints (CSRF-protected by next-auth)",
  "app/api/health/route.ts": "health for load balancers and monitors: database, migrations, state engine lag; no registry data",
  "app/api/metrics/route.ts":
    "metrics for Prometheus: authenticated by METRICS_TOKEN in lib/metrics.ts (lib/metrics.test.ts), not by session; off without it",
  "app/api/state-changes/route.ts":
    "the state change feed for other systems: authenticated by API token in lib/feed.ts (lib/feed.test.ts), not by session",
};

/** Route handlers that check access themselves (GET), who may call them, a request for them, and what an allowed caller's first line is. */
const ROUTES: Record<
  string,
  { allowed: Role[]; request: () => Request; params?: (fx: Fixtures) => Promise<Record<string, string>>; firstLine: RegExp }
> = {
  "app/objects/export/route.ts": {
    allowed: ["support", "operator", "admin"],
    request: () => new Request("http://console.test/objects/export?type=domain&states=outzone"),
    firstLine: /^id,name,type/,
  },
  "app/cases/[id]/record.csv/route.ts": {
    allowed: ["support", "operator", "admin"],
    request: () => new Request("http://console.test/cases/1/record.csv"),
    params: async (fx) => ({ id: String(await fx.newCase()) }),
    firstLine: /^record,case,kind,reference/,
  },
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(entry) ? [full] : [];
  });
}

const serverActionFiles = [...sourceFiles("app"), ...sourceFiles("lib")].filter((file) =>
  // A directive line anywhere: at the top of a file (after comments) or inside an inline action.
  /^\s*["']use server["']\s*;?\s*$/m.test(readFileSync(file, "utf8")),
);
const routeFiles = sourceFiles("app").filter((file) => /(^|\/)route\.tsx?$/.test(file));

describe("the list of server actions and route handlers is complete", () => {
  it("has an access rule for every exported server action", async () => {
    const exported: string[] = [];
    for (const file of serverActionFiles) {
      const module = await import(path.resolve(file));
      for (const name of Object.keys(module)) exported.push(`${file}#${name}`);
    }
    expect(exported.length).toBeGreaterThan(0);
    expect(exported.filter((key) => !(key in ACTIONS))).toEqual([]);
    expect(Object.keys(ACTIONS).filter((key) => !exported.includes(key))).toEqual([]);
  });

  it("knows every route handler", () => {
    expect(routeFiles.filter((file) => !(file in PUBLIC_ROUTES) && !(file in ROUTES))).toEqual([]);
  });
});

describe.each(testBackends())("access matrix on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  const contexts = {} as Record<Caller, RequestContext>;
  let fixtures: Fixtures;

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    await baseRegistry(db.sql);
    const holder = await createObject(db.sql, TYPE.contact, "MATRIX-HOLDER", "2020-01-01T00:00:00Z");
    const domain = await createDomain(db.sql, {
      name: "matrix.cz",
      crdate: "2020-01-01T00:00:00Z",
      exdate: "2030-01-01",
      registrant: holder,
      nsset: null,
    });
    let slot = 0;
    const freeSlot = () => new Date(Date.now() + (1000 + slot++ * 10) * 86_400_000).toISOString();
    let domains = 0;
    const newDomain = () =>
      createDomain(db.sql, {
        name: `matrix-${++domains}.cz`,
        crdate: "2020-01-01T00:00:00Z",
        exdate: "2030-01-01",
        registrant: holder,
        nsset: null,
      });
    fixtures = {
      domain,
      freeSlot,
      newDomain,
      newBlock: async () => {
        const blocked = await newDomain();
        const [{ id: requestId }] = await db.sql.query<{ id: number }>(
          "INSERT INTO object_state_request (object_id, state_id, valid_from) VALUES ($1, 7, now() AT TIME ZONE 'UTC' + interval '30 days') RETURNING id",
          [blocked],
        );
        const [{ id }] = await db.sql.query<{ id: number }>(
          "INSERT INTO console.blocks (object_id, blocked_request_id, created_by) VALUES ($1, $2, 'matrix') RETURNING id",
          [blocked, requestId],
        );
        await db.sql.query("INSERT INTO console.request_meta (request_id, author, block_id) VALUES ($1, 'matrix', $2)", [requestId, id]);
        return id;
      },
      secondFactorOn: async (userId) => {
        const factor = { secret: sealSecret(newSecret()), confirmedAt: new Date() };
        await db.prisma.secondFactor.upsert({ where: { userId }, create: { userId, ...factor }, update: factor, select: { userId: true } });
      },
      secondFactorPending: async () => {
        const key = newSecret();
        const callers = (["support", "operator", "admin"] as const).map((role) => contexts[role].claims?.uid ?? 0);
        await db.prisma.secondFactor.deleteMany({ where: { userId: { in: callers } } });
        await db.prisma.secondFactor.createMany({ data: callers.map((userId) => ({ userId, secret: sealSecret(key) })) });
        return TOTP.generate({ secret: Secret.fromBase32(key) });
      },
      noSecondFactors: async () => {
        await db.prisma.secondFactor.deleteMany({});
      },
      securityKeyRegistration: (caller) => {
        const { origin, rpId } = readConfig().securityKeys;
        const options = { rp: { id: rpId }, user: { id: "matrix" }, challenge: issueChallenge("register", caller) };
        return JSON.stringify(new SoftwareAuthenticator().register(options, origin));
      },
      newSecurityKey: async (userId) => {
        const credentialId = randomBytes(32).toString("base64url");
        const key = await db.prisma.securityKey.create({ data: { userId, credentialId, publicKey: new Uint8Array([1]), name: "matrix" } });
        return key.id;
      },
      otherSessionOf: async (userId) =>
        sessionHandle(await openSession(db.sql, userId, { clientAddress: "192.0.2.9", userAgent: "other" })),
      newToken: async () => {
        const [{ id }] = await db.sql.query<{ id: number }>(
          "INSERT INTO console.api_tokens (name, token_hash, created_by) VALUES ('matrix ' || gen_random_uuid(), md5(random()::text) || md5(random()::text), 'matrix') RETURNING id",
        );
        return id;
      },
      newRule: async () => {
        await db.sql.query(
          `INSERT INTO console.approval_rules (state, change, case_kind, created_by, created_at)
           VALUES ('serverRenewProhibited', 'change', 'registrant', 'matrix', now()) ON CONFLICT DO NOTHING`,
        );
        return (await db.sql.query<{ id: number }>("SELECT id FROM console.approval_rules WHERE case_kind = 'registrant'"))[0].id;
      },
      newBatch: async (userId) => {
        const batchId = randomUUID();
        for (const id of [await fixtures.newPending(userId), await fixtures.newPending(userId)])
          await db.sql.query("UPDATE console.pending_changes SET batch_id = $2 WHERE id = $1", [id, batchId]);
        return batchId;
      },
      newCase: async () => {
        const [{ id }] = await db.sql.query<{ id: number }>(
          `INSERT INTO console.cases (kind, reference, requested_by, owner_id, created_by, created_at)
           VALUES ('internal', 'matrix', 'matrix', (SELECT min(id) FROM console.users), 'matrix', now()) RETURNING id`,
        );
        return id;
      },
      newPending: async (userId) => {
        const objectId = await newDomain();
        const input = { objectId, state: "serverTransferProhibited", from: freeSlot(), reason: "access matrix" };
        const [{ id }] = await db.sql.query<{ id: number }>(
          `INSERT INTO console.pending_changes (command, object_id, input, state, change, summary, proposed_by, proposed_by_id, proposed_at)
           VALUES ('request.create', $1, $2::jsonb, 'serverTransferProhibited', 'make', '{}', 'matrix', $3, now()) RETURNING id`,
          [objectId, JSON.stringify(input), userId],
        );
        return id;
      },
      futureRequest: async () => {
        const [{ id }] = await db.sql.query<{ id: number }>(
          "INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to) VALUES ($1, 7, $2::timestamptz AT TIME ZONE 'UTC', $2::timestamptz AT TIME ZONE 'UTC' + interval '1 day') RETURNING id",
          [domain, freeSlot()],
        );
        return id;
      },
    };
    contexts.anonymous = anonymous(db);
    for (const role of ["support", "operator", "admin"] as const) contexts[role] = await signedInAs(db, role);
    await db.sql.query("UPDATE console.users SET password_hash = $1 WHERE id = ANY($2::int[])", [
      await hashPassword(MATRIX_PASSWORD),
      (["support", "operator", "admin"] as const).map((role) => contexts[role].claims?.uid),
    ]);
  });
  afterAll(() => drop());

  async function newTarget(): Promise<number> {
    const [{ id }] = await db.sql.query<{ id: number }>(
      `INSERT INTO console.users (username, role) VALUES ('target-' || substr(md5(random()::text), 1, 10), 'support') RETURNING id`,
    );
    return id;
  }

  const usersSnapshot = async () => [
    await db.sql.query(
      "SELECT id, username, role, disabled_at, session_version, password_hash, link_allowed_until, oidc_subject, directory_dn FROM console.users ORDER BY id",
    ),
    await db.sql.query("SELECT id, valid_from, valid_to, canceled FROM object_state_request ORDER BY id"),
    await db.sql.query("SELECT id, name, revoked_at FROM console.api_tokens ORDER BY id"),
    await db.sql.query("SELECT id, user_id, name FROM console.security_keys ORDER BY id"),
  ];
  const deniedCount = async () =>
    (await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM console.audit_log WHERE action = 'access.denied'"))[0].n;

  for (const [key, rule] of Object.entries(ACTIONS)) {
    const [file, name] = key.split("#");
    for (const caller of CALLERS) {
      const allowed = caller !== "anonymous" && rule.allowed.includes(caller);
      // A signed-in person's refusal is audited; an anonymous one only logged (lib/auth/guard.ts).
      const refused = caller === "anonymous" ? "refused, not audited, nothing changed" : "refused, audited, nothing changed";
      it(`${name} as ${caller}: ${allowed ? "allowed" : refused}`, async () => {
        const module = await import(path.resolve(file));
        const target = await newTarget();
        const input = await rule.form(target, fixtures, contexts[caller].claims?.uid);
        const before = await usersSnapshot();
        const denied = await deniedCount();
        const result = await actAs(contexts[caller], () => module[name](null, input));
        if (allowed) {
          expect(result).toMatchObject({ ok: true });
        } else {
          expect(result).toMatchObject({ ok: false, code: caller === "anonymous" ? "unauthenticated" : "forbidden" });
          expect(await usersSnapshot()).toEqual(before);
          expect(await deniedCount()).toBe(caller === "anonymous" ? denied : denied + 1);
        }
      });
    }
  }

  for (const [file, rule] of Object.entries(ROUTES)) {
    for (const caller of CALLERS) {
      const allowed = caller !== "anonymous" && rule.allowed.includes(caller);
      it(`GET ${file} as ${caller}: ${allowed ? "allowed" : "refused"}`, async () => {
        const module = await import(path.resolve(file));
        const params = rule.params ? await rule.params(fixtures) : {};
        const response: Response = await actAs(contexts[caller], () => module.GET(rule.request(), { params: Promise.resolve(params) }));
        expect(response.status).toBe(allowed ? 200 : caller === "anonymous" ? 401 : 403);
        if (allowed) expect((await response.text()).split("\r\n")[0]).toMatch(rule.firstLine);
      });
    }
  }

  const READS: [string, () => Promise<unknown>, Role[]][] = [
    ["objectDetail", () => objectDetail(1), ["support", "operator", "admin"]],
    ["listRequests", () => listRequests({}), ["support", "operator", "admin"]],
    ["objectIdByName", () => objectIdByName("EXAMPLE", null), ["support", "operator", "admin"]],
    ["exportObjects", () => exportObjects({}), ["support", "operator", "admin"]],
    ["listObjects", () => listObjects({}), ["support", "operator", "admin"]],
    ["listAudit", () => listAudit({}), ["admin"]],
    ["currentStates", () => currentStates(1), ["support", "operator", "admin"]],
    ["stateHistory", () => stateHistory(1), ["support", "operator", "admin"]],
    ["objectsInStateAt", () => objectsInStateAt("outzone", new Date()), ["support", "operator", "admin"]],
    ["listUsers", () => listUsers(), ["admin"]],
    ["ownAccount", () => ownAccount(), ["support", "operator", "admin"]],
  ];
  for (const [name, read, allowed] of READS) {
    for (const caller of CALLERS) {
      const ok = caller !== "anonymous" && allowed.includes(caller);
      it(`${name} as ${caller}: ${ok ? "allowed" : "refused"}`, async () => {
        const attempt = actAs(contexts[caller], read);
        if (ok) await expect(attempt).resolves.toBeDefined();
        else await expect(attempt).rejects.toMatchObject({ status: caller === "anonymous" ? 401 : 403 });
      });
    }
  }
});
