// The database's promises, checked after the fact (`npm run db:check`, and the fault and race
// tests): no overlapping requests, state history that is sound and agrees with the rules up to the
// engine's cursor, and an intact audit chain. Every check is SQL over the registry's own tables and
// the rules' own function (object_state_periods), so it holds for data written by anyone.
import { verifyAuditLog } from "./audit/anchor";
import { auditKeyRing } from "./audit/keys";
import { verifyAuditChain } from "./audit/verify";
import { type ConsoleConfig, readConfig } from "./config";
import { type Anomaly, registryAnomalies } from "./db/adopt";
import type { SqlExecutor } from "./db/driver";
import { registryMode } from "./db/mode";

export interface CheckResult {
  name: string;
  /** What the check promises, in words. */
  promise: string;
  violations: number;
  /** Up to ten violating rows, as text. */
  examples: string[];
}

export interface DatabaseCheck {
  ok: boolean;
  checks: CheckResult[];
  /** What an adopted registry held before adoption that the console's rules would refuse: kept, not violations. */
  inherited: Anomaly[];
  /** Instants and counts that explain the checks' scope. */
  notes: string[];
}

const EXAMPLES = 10;

// An adopted registry's own past: requests up to the newest at adoption, history that ended before it.
const INHERITED_REQUESTS = "coalesce((SELECT last_inherited_request FROM console.registry_origin WHERE origin = 'adopted'), 0)";
const ADOPTED_AT =
  "coalesce((SELECT since AT TIME ZONE 'UTC' FROM console.registry_origin WHERE origin = 'adopted'), '-infinity'::timestamp)";

// Each query returns one text column `example` per violation.
/** The console's engine's own promises about the history it writes: only in charge (beside and in shadow FRED's engine writes it). */
const ENGINE_CHECKS = new Set(["history order", "open states without cause", "causes without state"]);
/** The object list's copy of the keys is exact only where the console's trigger keeps it (charge); beside the scheduler's passes do. */
const KEYS_CHECK = "object list keys";

const CHECKS: { name: string; promise: string; sql: string }[] = [
  {
    name: "request overlaps",
    promise: "no two requests for one state of one object hold at the same time",
    sql: `SELECT format('requests %s and %s: %s on object %s', a.id, b.id, s.name, a.object_id) AS example
            FROM object_state_request a
            JOIN object_state_request b ON b.object_id = a.object_id AND b.state_id = a.state_id AND b.id > a.id
            JOIN enum_object_states s ON s.id = a.state_id
           WHERE console.request_period(a.valid_from, a.valid_to, a.canceled) && console.request_period(b.valid_from, b.valid_to, b.canceled)
             AND b.id > ${INHERITED_REQUESTS}`,
  },
  {
    name: "zone conflicts",
    promise: "serverOutzoneManual and serverInzoneManual never hold at the same time for one object",
    sql: `SELECT format('requests %s (serverOutzoneManual) and %s (serverInzoneManual) on object %s', a.id, b.id, a.object_id) AS example
            FROM object_state_request a
            JOIN object_state_request b ON b.object_id = a.object_id
           WHERE a.state_id = (SELECT id FROM enum_object_states WHERE name = 'serverOutzoneManual')
             AND b.state_id = (SELECT id FROM enum_object_states WHERE name = 'serverInzoneManual')
             AND console.request_period(a.valid_from, a.valid_to, a.canceled) && console.request_period(b.valid_from, b.valid_to, b.canceled)
             AND greatest(a.id, b.id) > ${INHERITED_REQUESTS}`,
  },
  {
    name: "requests FRED refuses",
    promise:
      "no request ends before it begins (LEAST(canceled, valid_to) < valid_from): FRED's programs would refuse every new request for its object and state",
    // The rows console.registry_anomalies lists as out_of_turn; the inherited ones are listed below, not counted.
    sql: `SELECT a.detail AS example FROM console.registry_anomalies() a
           WHERE a.kind = 'out_of_turn' AND a.request_id > ${INHERITED_REQUESTS}`,
  },
  {
    name: "history overlaps",
    promise: "no two history rows of one state of one object overlap, and at most one is open",
    sql: `SELECT format('rows %s and %s: %s on object %s', a.id, b.id, s.name, a.object_id) AS example
            FROM object_state a
            JOIN object_state b ON b.object_id = a.object_id AND b.state_id = a.state_id AND b.id > a.id
            JOIN enum_object_states s ON s.id = a.state_id
           WHERE tsrange(a.valid_from, a.valid_to) && tsrange(b.valid_from, b.valid_to)
             AND coalesce(b.valid_to, 'infinity') > ${ADOPTED_AT} AND coalesce(a.valid_to, 'infinity') > ${ADOPTED_AT}`,
  },
  {
    name: "history order",
    promise: "every history row ends after it starts, and none starts or ends after the engine's cursor",
    sql: `SELECT format('row %s (object %s): %s → %s, cursor %s', os.id, os.object_id, os.valid_from, os.valid_to, e.cursor) AS example
            FROM object_state os CROSS JOIN console.state_engine e
            LEFT JOIN console.state_next_event ne ON ne.object_id = os.object_id
           WHERE coalesce(os.valid_to, 'infinity') > ${ADOPTED_AT}
             AND (os.valid_to <= os.valid_from
                  OR os.valid_from > greatest(e.cursor, ne.exact_to) AT TIME ZONE 'UTC'
                  OR os.valid_to > greatest(e.cursor, ne.exact_to) AT TIME ZONE 'UTC')`,
  },
  {
    name: "open states without cause",
    promise: "every state an object has just before the cursor is one its rules or requests give it then",
    sql: `WITH t AS (SELECT cursor - interval '1 millisecond' AS at, (cursor - interval '1 millisecond') AT TIME ZONE 'UTC' AS utc
                       FROM console.state_engine WHERE cursor IS NOT NULL),
               held AS (SELECT os.object_id, os.state_id FROM object_state os, t
                         WHERE os.valid_from <= t.utc AND (os.valid_to IS NULL OR os.valid_to > t.utc)
                           AND (os.state_id = ANY (console.engine_automatic_states())
                                OR os.state_id IN (SELECT id FROM enum_object_states WHERE manual))
                           AND NOT EXISTS (SELECT FROM console.state_next_event ne WHERE ne.object_id = os.object_id AND ne.exact_to > t.at)
                           AND NOT EXISTS (SELECT FROM console.state_pending sp WHERE sp.object_id = os.object_id)),
               due AS (SELECT p.object_id, p.state_id FROM console.object_state_periods() p, t
                        WHERE p.valid_from <= t.at AND (p.valid_to IS NULL OR p.valid_to > t.at))
          SELECT format('object %s has %s without cause', h.object_id, s.name) AS example
            FROM (SELECT * FROM held EXCEPT SELECT * FROM due) h JOIN enum_object_states s ON s.id = h.state_id`,
  },
  {
    name: "causes without state",
    promise: "every state the rules or requests give an object just before the cursor is in its history",
    sql: `WITH t AS (SELECT cursor - interval '1 millisecond' AS at, (cursor - interval '1 millisecond') AT TIME ZONE 'UTC' AS utc
                       FROM console.state_engine WHERE cursor IS NOT NULL),
               held AS (SELECT os.object_id, os.state_id FROM object_state os, t
                         WHERE os.valid_from <= t.utc AND (os.valid_to IS NULL OR os.valid_to > t.utc)),
               due AS (SELECT p.object_id, p.state_id FROM console.object_state_periods() p, t
                        WHERE p.valid_from <= t.at AND (p.valid_to IS NULL OR p.valid_to > t.at)
                          AND NOT EXISTS (SELECT FROM console.state_next_event ne WHERE ne.object_id = p.object_id AND ne.exact_to > t.at)
                          AND NOT EXISTS (SELECT FROM console.state_pending sp WHERE sp.object_id = p.object_id))
          SELECT format('object %s should have %s', d.object_id, s.name) AS example
            FROM (SELECT * FROM due EXCEPT SELECT * FROM held) d JOIN enum_object_states s ON s.id = d.state_id`,
  },
  {
    name: "audited changes that do not exist",
    promise: "every request the audit log records as created exists",
    sql: `SELECT format('audit row %s (%s) names request %s', a.id, a.action, a.input->>'requestId') AS example
            FROM console.audit_log a
           WHERE a.action = 'request.create' AND a.result = 'ok' AND a.input ? 'requestId'
             AND NOT EXISTS (SELECT FROM object_state_request r WHERE r.id = (a.input->>'requestId')::int)`,
  },
  {
    name: "requests audited twice",
    promise: "no request is recorded as created by two audit rows",
    sql: `SELECT format('request %s: audit rows %s', a.input->>'requestId', string_agg(a.id::text, ', ')) AS example
            FROM console.audit_log a
           WHERE a.action = 'request.create' AND a.result = 'ok' AND a.input ? 'requestId'
             AND NOT a.input ? 'repeated' -- before 2026-11-22 a repeated form was audited so
           GROUP BY a.input->>'requestId' HAVING count(*) > 1`,
  },
  {
    name: "parameters compiled",
    promise:
      "the state rules use FRED's parameters as domain_lifecycle_parameters and enum_parameters hold them (compiled into the rules when they change)",
    sql: `SELECT format('%s: compiled %s, stored %s', d.what, coalesce(d.compiled, 'none'), coalesce(d.stored, 'none')) AS example
            FROM (SELECT 'domain_lifecycle_parameters' AS what,
                         (SELECT string_agg(l::text, '; ' ORDER BY l.valid_from) FROM console.lifecycle_periods() l) AS compiled,
                         (SELECT string_agg(l::text, '; ' ORDER BY l.valid_from) FROM console.lifecycle_periods_stored() l) AS stored
                  UNION ALL
                  SELECT 'enum_parameters', (SELECT p::text FROM console.state_parameters() p),
                         (SELECT p::text FROM console.state_parameters_stored() p)) d
           WHERE d.compiled IS DISTINCT FROM d.stored`,
  },
  {
    name: "blocks without their request",
    promise: "a block that is not lifted has its serverBlocked request, not canceled before it began",
    sql: `SELECT format('block %s on object %s', b.id, b.object_id) AS example
            FROM console.blocks b JOIN object_state_request r ON r.id = b.blocked_request_id
           WHERE b.unblocked_at IS NULL AND r.canceled IS NOT NULL AND r.canceled <= r.valid_from`,
  },
  {
    name: KEYS_CHECK,
    promise:
      "the object list's copy of the keys (console.object_key) holds every object of object_registry with the same type, name, creation and deletion, and nothing else",
    sql: `SELECT format('object %s: %s', coalesce(r.id, k.id),
                        CASE WHEN k.id IS NULL THEN 'missing from the object list''s keys'
                             WHEN r.id IS NULL THEN 'in the object list''s keys, not in object_registry'
                             ELSE 'the object list''s keys differ from object_registry' END) AS example
            FROM object_registry r FULL JOIN console.object_key k ON k.id = r.id
           WHERE k.id IS NULL OR r.id IS NULL
              OR (r.type, r.name, r.crdate, r.erdate) IS DISTINCT FROM (k.type, k.name, k.crdate, k.erdate)`,
  },
  {
    name: "owner's code closed",
    promise:
      "no role but the owner may create objects in schemas public and console, and every function of schemas console and public that runs as the owner or sets a search_path ends it with pg_temp: no caller's object is resolved in the owner's code",
    sql: `SELECT format('%s may create objects in schema %s (REVOKE CREATE ON SCHEMA %s FROM %s)', coalesce(quote_ident(r.rolname), 'PUBLIC'),
                         n.nspname, n.nspname, coalesce(quote_ident(r.rolname), 'PUBLIC')) AS example
            FROM pg_namespace n
           CROSS JOIN LATERAL aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a
            LEFT JOIN pg_roles r ON r.oid = a.grantee
           WHERE n.nspname IN ('public', 'console') AND a.privilege_type = 'CREATE' AND a.grantee <> n.nspowner
             AND NOT coalesce(r.rolsuper, false)
             AND (a.grantee = 0 OR NOT pg_has_role(a.grantee, (SELECT c.nspowner FROM pg_namespace c WHERE c.nspname = 'console'), 'MEMBER'))
          UNION ALL
          SELECT format('function %s runs with %s, without pg_temp last', p.oid::regprocedure,
                        coalesce((SELECT c FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%'), 'the caller''s search_path'))
            FROM pg_proc p
           WHERE p.pronamespace IN ('console'::regnamespace, 'public'::regnamespace)
             AND (p.prosecdef OR EXISTS (SELECT FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%'))
             AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
             AND NOT coalesce((SELECT c FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%') ~ 'pg_temp"?$', false)`,
  },
];

/**
 * Runs every check; `checks` names a subset (for tests). With `auditAnchor` (where the anchor is
 * kept: npm run db:check passes the configuration), the audit chain is also checked against the
 * anchor kept outside the database, which then moves to the newest row (lib/audit/anchor.ts).
 */
export async function checkDatabase(
  db: SqlExecutor,
  only?: string[],
  options: { auditAnchor?: Pick<ConsoleConfig, "auditAnchorFile" | "databaseUrl" | "pgliteDir"> } = {},
): Promise<DatabaseCheck> {
  const results: CheckResult[] = [];
  const { mode } = await registryMode(db);
  const applies = (name: string) => mode === "charge" || (!ENGINE_CHECKS.has(name) && name !== KEYS_CHECK);
  for (const check of CHECKS.filter((c) => (!only || only.includes(c.name)) && applies(c.name))) {
    const rows = await db.query<{ example: string; total: number }>(
      `SELECT example, count(*) OVER ()::int AS total FROM (${check.sql}) v LIMIT ${EXAMPLES}`,
    );
    results.push({ name: check.name, promise: check.promise, violations: rows[0]?.total ?? 0, examples: rows.map((r) => r.example) });
  }
  if (!only || only.includes("audit chain")) {
    const chain = options.auditAnchor
      ? await verifyAuditLog(db, { keys: auditKeyRing(readConfig(), { create: false }), config: options.auditAnchor })
      : await verifyAuditChain(db);
    results.push({
      name: "audit chain",
      promise:
        "the audit log's chain is unbroken and every row since keyed chaining carries the MAC the audit key gives it: no row changed, removed, inserted or re-chained",
      violations: chain.ok ? 0 : 1,
      examples: chain.problem ? [chain.problem.id ? `audit row ${chain.problem.id}: ${chain.problem.reason}` : chain.problem.reason] : [],
    });
  }
  const [state] = await db.query<{ cursor: Date | null; marked: number }>(
    "SELECT e.cursor, (SELECT count(*)::int FROM console.state_next_event ne WHERE ne.exact_to > e.cursor) + (SELECT count(DISTINCT object_id)::int FROM console.state_pending) AS marked FROM console.state_engine e",
  );
  const notes = [
    ...(mode === "charge"
      ? []
      : [
          `The registry is in ${mode} mode: FRED's own engine writes the state history, so the console's engine's checks of it (${[...ENGINE_CHECKS].join(", ")}) do not apply; \`npm run db:shadow\` compares FRED's states with the rules.`,
          `The object list's copy of the keys follows object_registry at the scheduler's passes in ${mode} mode (new objects each pass, deletions hourly): the check “${KEYS_CHECK}” does not apply.`,
        ]),
    state?.cursor
      ? `State history is checked against the rules just before the engine's cursor, ${state.cursor.toISOString()}.`
      : "The state engine has not run yet: history is not compared with the rules.",
    ...(state?.marked
      ? [`${state.marked} object(s) changed since the engine's cursor (or wait for its next run); their states are not compared.`]
      : []),
  ];
  const [origin] = await db.query<{ last: number | null }>(
    "SELECT last_inherited_request AS last FROM console.registry_origin WHERE origin = 'adopted'",
  );
  const inherited = origin ? (await registryAnomalies(db)).filter((a) => a.requestId === null || a.requestId <= (origin.last ?? 0)) : [];
  return { ok: results.every((r) => r.violations === 0), checks: results, inherited, notes };
}
