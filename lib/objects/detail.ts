import "server-only";
import { authorize } from "../auth/guard";
import { type Role, roleAllows } from "../auth/roles";
import { readConfig } from "../config";
import { type Anomaly, registryAnomalies } from "../db/adopt";
import { pageReads } from "../db/client";
import type { SqlExecutor } from "../db/driver";
import { descriptionLang, type Locale } from "../i18n/config";
import { getLocale } from "../i18n/server";
import { hasNul, isId } from "../input/values";
import { currentBlock } from "../requests/block-rules";
import { CANCELED_SQL, PHASE_SQL } from "../requests/read";
import { type FredProcedureNotice, fredProcedureNotice } from "../states/fred-procedure";
import { liveObjectsNamed } from "../states/objects";
import { type BlockEvent, blockHistory } from "./block-history";
import { reasonText } from "./reasons";

/** Another object this one points at (or is pointed at by). */
export interface ObjectRef {
  id: number;
  name: string;
}

interface CurrentState {
  name: string;
  description: string;
  manual: boolean;
  external: boolean;
  since: string;
  /**
   * Why it holds, from the rules in SQL (state_reasons), in the request's language; null when no
   * rule or request explains it now.
   */
  reason: string | null;
  requestId: number | null;
}

export interface HistoryPeriod {
  state: string;
  manual: boolean;
  external: boolean;
  from: string;
  to: string | null;
}

export type RequestStatus = "scheduled" | "in force" | "ended" | "canceled";

export interface StateRequest {
  id: number;
  state: string;
  from: string;
  to: string | null;
  created: string;
  canceled: string | null;
  reason: string | null;
  cancelReason: string | null;
  status: RequestStatus;
  /** Who made it and who canceled it, when done in the console. */
  author: string | null;
  canceledBy: string | null;
  /** The administrative block it belongs to: it ends with the block, not on its own. */
  blockId: number | null;
  /** That block's serverBlocked request (the only name of a block FRED made: blockId is then null). */
  blockRequestId: number | null;
}

/** How many rows the object page shows of long tables unless asked for all of them. */
export const PAGE_ROWS = { history: 100, requests: 50 } as const;

/**
 * The rows of the object page's history and request tables: the newest PAGE_ROWS of each unless
 * `all`, but always every request that can still change (pending or in force), in their order.
 */
export function visibleRows(
  object: Pick<ObjectDetail, "history" | "requests">,
  all: { history: boolean; requests: boolean },
): { history: HistoryPeriod[]; requests: StateRequest[] } {
  const history = all.history ? object.history : object.history.slice(-PAGE_ROWS.history);
  if (all.requests) return { history, requests: object.requests };
  const open = (r: StateRequest) => r.status === "scheduled" || r.status === "in force";
  const room = Math.max(0, PAGE_ROWS.requests - object.requests.filter(open).length);
  const kept = new Set([...object.requests.filter(open), ...object.requests.filter((r) => !open(r)).slice(0, room)]);
  return { history, requests: object.requests.filter((r) => kept.has(r)) };
}

export interface ObjectDetail {
  id: number;
  roid: string;
  name: string;
  type: string;
  sponsoringRegistrar: string | null;
  creatingRegistrar: string;
  updatingRegistrar: string | null;
  created: string;
  updated: string | null;
  transferred: string | null;
  deleted: string | null;
  domain: {
    zone: string;
    expires: string;
    validationExpires: string | null;
    registrant: ObjectRef;
    admins: ObjectRef[];
    temps: ObjectRef[];
    nsset: ObjectRef | null;
    keyset: ObjectRef | null;
    hosts: { fqdn: string; addresses: string[] }[];
  } | null;
  contact: { name: string | null; organization: string | null; email: string | null } | null;
  /** nsset / keyset: technical contacts; nsset: hosts. */
  techContacts: ObjectRef[];
  hosts: { fqdn: string; addresses: string[] }[];
  states: CurrentState[];
  history: HistoryPeriod[];
  requests: StateRequest[];
  /** What the rules say will hold from now on if nothing changes (object_state_periods). */
  projected: { state: string; from: string; to: string | null }[];
  metadata: {
    lastUpdate: string | null;
    /** How many objects point at this one (contact, nsset, keyset); null for domains. */
    references: number | null;
    /** When "linked" last started or ended. */
    referencesChanged: string | null;
    /** When it becomes a delete candidate if nothing changes; null: not foreseen. */
    deleteCandidateAt: string | null;
  };
  /** EPP commands the current states refuse, with the states that refuse them. */
  refusals: { command: string; states: string[] }[];
  /** Domains: whether zone generation includes it now. */
  inZone: boolean | null;
  /** Whether the caller may create and cancel requests; the states they may request here. */
  canWrite: boolean;
  requestable: { name: string; description: string; refuses: string[] }[];
  /** The block in force or scheduled, if any, whoever made it (id and by are null for one FRED made). */
  block: Awaited<ReturnType<typeof currentBlock>>;
  /**
   * The history of its newest blocks (lib/objects/block-history.ts): each made, changed and lifted,
   * with who, when and why; `blocks`: how many blocks the console has recorded for it.
   */
  blockHistory: { events: BlockEvent[]; blocks: number };
  /** The object's audit entries, newest first; null when the role may not read the audit log. */
  audit: { at: string; actor: string | null; action: string; result: string }[] | null;
  /**
   * What the registry holds for this object that the console's rules would not accept today
   * (console.registry_anomalies): inherited from FRED and kept as it is.
   */
  anomalies: Anomaly[];
  /**
   * Beside FRED and in shadow (FRED's regular procedure records the date-driven states): where the
   * object's automatic states in object_state lag the rules now, and when FRED's procedure last ran
   * and is next expected; null in charge and on a registry the console created.
   */
  fredProcedure: FredProcedureNotice | null;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * The description of state `s` in the language $2 of enum_object_states_desc ('EN', 'CS'), else
 * in English, else null (the caller shows the state's name).
 */
const DESCRIPTION = `coalesce((SELECT d.description FROM enum_object_states_desc d WHERE d.state_id = s.id AND d.lang = $2),
                              (SELECT d.description FROM enum_object_states_desc d WHERE d.state_id = s.id AND d.lang = 'EN'))`;

async function refs(db: SqlExecutor, sql: string, id: number): Promise<ObjectRef[]> {
  return db.query<ObjectRef>(sql, [id]);
}

async function hostsOf(db: SqlExecutor, nssetId: number) {
  return db.query<{ fqdn: string; addresses: string[] }>(
    `SELECT h.fqdn, ARRAY(SELECT host(a.ipaddr) FROM host_ipaddr_map a WHERE a.hostid = h.id ORDER BY a.ipaddr) AS addresses
       FROM host h WHERE h.nssetid = $1 ORDER BY h.fqdn`,
    [nssetId],
  );
}

/** The id of the live object with this name (any case) and, if given, type; null if none or several. */
export async function objectIdByName(name: string, type: string | null): Promise<number | null> {
  const { db } = await authorize("registry.read", "objects.by_name");
  // No name is empty, longer than 255 or holds a NUL character; no type name is longer than 50.
  if (name.length === 0 || name.length > 255 || hasNul(name)) return null;
  if (type !== null && (type.length > 50 || hasNul(type))) return null;
  const rows = await liveObjectsNamed(pageReads(db), name, type);
  return rows.length === 1 ? rows[0].id : null;
}

/** An object's name (its handle or domain name), or null when there is no object with that id. */
export async function objectNameById(id: number): Promise<string | null> {
  const { db } = await authorize("registry.read", "objects.name");
  if (!isId(id)) return null;
  const [row] = await pageReads(db).query<{ name: string }>("SELECT name FROM object_registry WHERE id = $1", [id]);
  return row?.name ?? null;
}

/** Everything the object page shows about one object, or null when there is no object with that id. */
export async function objectDetail(id: number): Promise<ObjectDetail | null> {
  const { db, actor } = await authorize("registry.read", "objects.detail");
  if (!isId(id)) return null;
  const sql = pageReads(db);
  const object = await readObject(sql, id);
  if (!object) return null;

  const canWrite = roleAllows(actor.role, "requests.write");
  const locale = await getLocale();
  const lang = descriptionLang(locale);
  const rows = await readObjectRows(sql, object, { role: actor.role, canWrite, lang });
  const blocks = await blockHistory(sql, id);
  return assembleDetail(object, rows, blocks, { canWrite, locale });
}

/** The object's registry row: its id, names, type, registrars and dates. */
interface ObjectRow {
  id: number;
  roid: string;
  name: string;
  type: string;
  sponsoring: string | null;
  creating: string;
  updating: string | null;
  crdate: Date;
  update: Date | null;
  trdate: Date | null;
  erdate: Date | null;
}

/** Reads the object itself (deleted ones too) with its registrars; undefined when there is none. */
async function readObject(sql: SqlExecutor, id: number): Promise<ObjectRow | undefined> {
  const [object] = await sql.query<ObjectRow>(
    `SELECT o.id, o.roid, o.name, t.name AS type, sp.handle AS sponsoring, cr.handle AS creating, up.handle AS updating,
            o.crdate, ob.update, ob.trdate, o.erdate
       FROM object_registry o JOIN enum_object_type t ON t.id = o.type
       JOIN registrar cr ON cr.id = o.crid
       LEFT JOIN object ob ON ob.id = o.id
       LEFT JOIN registrar sp ON sp.id = ob.clid
       LEFT JOIN registrar up ON up.id = ob.upid
      WHERE o.id = $1`,
    [id],
  );
  return object;
}

/** Everything else the page shows of the object, read at once (in this order) once the object is known. */
async function readObjectRows(sql: SqlExecutor, object: ObjectRow, caller: { role: Role; canWrite: boolean; lang: string }) {
  const { id } = object;
  const [states, history, requests, projected, refusals, audit, typeData, requestable, block, anomalies, fredProcedure] = await Promise.all(
    [
      readCurrentStates(sql, id, caller.lang),
      readStateHistory(sql, id),
      readRequests(sql, id),
      readProjected(sql, id),
      readRefusals(sql, id),
      readAudit(sql, id, roleAllows(caller.role, "audit.read")),
      typeSpecific(sql, object.type, id),
      readRequestable(sql, id, caller.lang, caller.canWrite && !object.erdate),
      currentBlock(sql, id),
      registryAnomalies(sql, id),
      fredProcedureNotice(sql, id, { everyMinutes: readConfig().fredProcedureEveryMinutes }),
    ],
  );
  return { states, history, requests, projected, refusals, audit, typeData, requestable, block, anomalies, fredProcedure };
}

type ObjectRows = Awaited<ReturnType<typeof readObjectRows>>;

interface CurrentStateRow {
  name: string;
  description: string | null;
  manual: boolean;
  external: boolean;
  valid_from: Date;
  code: string | null;
  args: Record<string, unknown> | null;
  request_id: number | null;
}

/** Reads the states the object holds now, most important first, with their descriptions and the rules' reasons. */
function readCurrentStates(sql: SqlExecutor, id: number, lang: string): Promise<CurrentStateRow[]> {
  return sql.query<CurrentStateRow>(
    `SELECT s.name, ${DESCRIPTION} AS description, s.manual, s.external, os.valid_from, r.code, r.args, r.request_id
         FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
         LEFT JOIN console.state_reasons($1) r ON r.state_id = os.state_id
        WHERE os.object_id = $1 AND os.valid_to IS NULL ORDER BY s.importance DESC NULLS LAST, s.id`,
    [id, lang],
  );
}

interface StateHistoryRow {
  name: string;
  manual: boolean;
  external: boolean;
  valid_from: Date;
  valid_to: Date | null;
}

/** Reads every period of every state the object has held or holds, oldest first. */
function readStateHistory(sql: SqlExecutor, id: number): Promise<StateHistoryRow[]> {
  return sql.query<StateHistoryRow>(
    `SELECT s.name, s.manual, s.external, os.valid_from, os.valid_to FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
        WHERE os.object_id = $1 ORDER BY os.valid_from, s.id`,
    [id],
  );
}

interface RequestRow {
  id: number;
  name: string;
  valid_from: Date;
  valid_to: Date | null;
  crdate: Date;
  canceled: Date | null;
  reason_creation: string | null;
  reason_cancellation: string | null;
  status: RequestStatus;
  author: string | null;
  canceled_by: string | null;
  block_id: number | null;
  block_request_id: number | null;
}

/** Reads the object's state requests, newest first, with their reasons, authors, phase and block. */
function readRequests(sql: SqlExecutor, id: number): Promise<RequestRow[]> {
  return sql.query<RequestRow>(
    // Each request's block: the blocks' requests unnested once and hash-joined (a lateral search of
    // the blocks per request took 7 ms for an object with 250 blocks among 500 requests).
    `WITH blocks AS MATERIALIZED (SELECT block_id, request_id, request_ids FROM console.object_blocks WHERE object_id = $1),
            members AS (SELECT DISTINCT ON (m.id) m.id, x.block_id, x.request_id
                          FROM blocks x CROSS JOIN LATERAL unnest(x.request_id || x.request_ids) m(id) ORDER BY m.id, x.request_id)
       SELECT r.id, s.name, r.valid_from, r.valid_to, r.crdate, ${CANCELED_SQL} AS canceled, rr.reason_creation, rr.reason_cancellation,
              m.author, m.canceled_by, b.block_id, b.request_id AS block_request_id, ${PHASE_SQL} AS status
         FROM object_state_request r JOIN enum_object_states s ON s.id = r.state_id
         LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id
         LEFT JOIN console.request_meta m ON m.request_id = r.id
         LEFT JOIN members b ON b.id = r.id
        WHERE r.object_id = $1 ORDER BY r.valid_from DESC, r.id DESC`,
    [id],
  );
}

interface ProjectedRow {
  name: string;
  valid_from: Date;
  valid_to: Date | null;
}

/** Reads the state periods the rules foresee from now on if nothing changes. */
function readProjected(sql: SqlExecutor, id: number): Promise<ProjectedRow[]> {
  return sql.query<ProjectedRow>(
    // The per-object gatherer (cached plans, index lookups): the set-based one is planned anew on
    // every call, 8-19 ms at 1.5 million domains.
    `SELECT s.name, greatest(p.lo, now()) AS valid_from, p.hi AS valid_to
         FROM unnest(console.object_state_periods_of($1::int, now())) p JOIN enum_object_states s ON s.id = p.state_id
        WHERE p.hi IS NULL OR p.hi > now() ORDER BY p.lo, s.id`,
    [id],
  );
}

/** Reads the EPP commands the current states refuse, each with the states that refuse it. */
function readRefusals(sql: SqlExecutor, id: number): Promise<{ command: string; states: string[] }[]> {
  return sql.query<{ command: string; states: string[] }>(
    `SELECT c.command, array_agg(s.name ORDER BY s.id) AS states
         FROM console.object_state_command_refusal c JOIN enum_object_states s ON s.id = c.state_id
         JOIN object_state os ON os.state_id = c.state_id AND os.object_id = $1 AND os.valid_to IS NULL
        GROUP BY c.command ORDER BY min(array_position(ARRAY['update','delete','transfer','renew'], c.command::text))`,
    [id],
  );
}

interface AuditRow {
  at: Date;
  actor: string | null;
  action: string;
  result: string;
}

/** Reads the object's newest audit entries when the caller may read the audit log; else null. */
function readAudit(sql: SqlExecutor, id: number, allowed: boolean): Promise<AuditRow[] | null> {
  return allowed
    ? sql.query<AuditRow>(
        "SELECT at, actor, action, result FROM console.audit_log WHERE object_ids @> ARRAY[$1::int] ORDER BY id DESC LIMIT 100",
        [id],
      )
    : Promise.resolve(null);
}

interface RequestableRow {
  name: string;
  description: string | null;
  refuses: string[];
}

/** Reads the manual states valid for the object's type, with what each refuses, when the caller may request them; else none. */
function readRequestable(sql: SqlExecutor, id: number, lang: string, allowed: boolean): Promise<RequestableRow[]> {
  return allowed
    ? sql.query<RequestableRow>(
        `SELECT s.name, ${DESCRIPTION} AS description,
                  ARRAY(SELECT c.command::text FROM console.object_state_command_refusal c WHERE c.state_id = s.id ORDER BY c.command) AS refuses
             FROM enum_object_states s JOIN object_registry o ON o.id = $1 AND o.type = ANY (s.types)
            WHERE s.manual ORDER BY s.importance DESC NULLS LAST, s.id`,
        [id, lang],
      )
    : Promise.resolve([]);
}

/** When "linked" last started or ended, from the state history; null if it never held. */
function lastLinkedChange(history: StateHistoryRow[]): Date | null {
  const linked = history.filter((h) => h.name === "linked");
  return linked.flatMap((h) => [h.valid_from, h.valid_to]).reduce<Date | null>((a, b) => (b && (!a || b > a) ? b : a), null);
}

/** When the object is foreseen to become a delete candidate; null if it is one already or none is foreseen. */
function deleteCandidateAt(states: CurrentStateRow[], projected: ProjectedRow[]): Date | null {
  return states.some((s) => s.name === "deleteCandidate")
    ? null
    : (projected.find((p) => p.name === "deleteCandidate")?.valid_from ?? null);
}

/** Puts the object page's data together from the rows read: dates as ISO strings, descriptions and reasons in the caller's language. */
function assembleDetail(
  object: ObjectRow,
  rows: ObjectRows,
  blocks: ObjectDetail["blockHistory"],
  caller: { canWrite: boolean; locale: Locale },
): ObjectDetail {
  const { states, history, requests, projected, refusals, audit, typeData, requestable, block, anomalies, fredProcedure } = rows;
  const linkedChanged = lastLinkedChange(history);
  const deleteCandidate = deleteCandidateAt(states, projected);
  return {
    id: object.id,
    roid: object.roid,
    name: object.name,
    type: object.type,
    sponsoringRegistrar: object.sponsoring,
    creatingRegistrar: object.creating,
    updatingRegistrar: object.updating,
    created: object.crdate.toISOString(),
    updated: iso(object.update),
    transferred: iso(object.trdate),
    deleted: iso(object.erdate),
    ...typeData,
    states: currentStates(states, caller.locale),
    history: historyPeriods(history),
    requests: stateRequests(requests),
    projected: projected.map((p) => ({ state: p.name, from: p.valid_from.toISOString(), to: iso(p.valid_to) })),
    metadata: {
      lastUpdate: iso(object.update),
      references: typeData.references,
      referencesChanged: iso(linkedChanged),
      deleteCandidateAt: iso(deleteCandidate),
    },
    refusals: refusals.map((r) => ({ command: r.command, states: r.states })),
    inZone: object.type === "domain" ? !states.some((s) => s.name === "outzone") : null,
    canWrite: caller.canWrite,
    block,
    blockHistory: blocks,
    requestable: requestable.map((r) => ({ name: r.name, description: r.description ?? r.name, refuses: r.refuses })),
    audit: audit?.map((a) => ({ at: a.at.toISOString(), actor: a.actor, action: a.action, result: a.result })) ?? null,
    anomalies,
    fredProcedure,
  };
}

/** The current states as the page shows them: a description (else the name) and the reason in the caller's language. */
function currentStates(states: CurrentStateRow[], locale: Locale): CurrentState[] {
  return states.map((s) => ({
    name: s.name,
    description: s.description ?? s.name,
    manual: s.manual,
    external: s.external,
    since: s.valid_from.toISOString(),
    reason: s.code ? reasonText({ code: s.code, args: s.args ?? {} }, locale) : null,
    requestId: s.request_id,
  }));
}

/** The state history as the page shows it. */
function historyPeriods(history: StateHistoryRow[]): HistoryPeriod[] {
  return history.map((h) => ({
    state: h.name,
    manual: h.manual,
    external: h.external,
    from: h.valid_from.toISOString(),
    to: iso(h.valid_to),
  }));
}

/** The state requests as the page shows them. */
function stateRequests(requests: RequestRow[]): StateRequest[] {
  return requests.map((r) => ({
    id: r.id,
    state: r.name,
    from: r.valid_from.toISOString(),
    to: iso(r.valid_to),
    created: r.crdate.toISOString(),
    canceled: iso(r.canceled),
    reason: r.reason_creation,
    cancelReason: r.reason_cancellation,
    status: r.status,
    author: r.author,
    canceledBy: r.canceled_by,
    blockId: r.block_id,
    blockRequestId: r.block_request_id,
  }));
}

async function typeSpecific(sql: SqlExecutor, type: string, id: number) {
  const empty = {
    domain: null,
    contact: null,
    techContacts: [] as ObjectRef[],
    hosts: [] as { fqdn: string; addresses: string[] }[],
    references: null as number | null,
  };
  if (type === "domain") {
    const [d] = await sql.query<{
      zone: string;
      exdate: string;
      val_exdate: string | null;
      registrant_id: number;
      registrant: string;
      nsset_id: number | null;
      nsset: string | null;
      keyset_id: number | null;
      keyset: string | null;
    }>(
      `SELECT z.fqdn AS zone, d.exdate::text AS exdate, e.exdate::text AS val_exdate, d.registrant AS registrant_id, rc.name AS registrant,
              d.nsset AS nsset_id, ns.name AS nsset, d.keyset AS keyset_id, ks.name AS keyset
         FROM domain d JOIN zone z ON z.id = d.zone JOIN object_registry rc ON rc.id = d.registrant
         LEFT JOIN enumval e ON e.domainid = d.id
         LEFT JOIN object_registry ns ON ns.id = d.nsset LEFT JOIN object_registry ks ON ks.id = d.keyset
        WHERE d.id = $1`,
      [id],
    );
    if (!d) return empty;
    const contacts = (role: number) =>
      refs(
        sql,
        `SELECT o.id, o.name FROM domain_contact_map m JOIN object_registry o ON o.id = m.contactid WHERE m.domainid = $1 AND m.role = ${role} ORDER BY o.name`,
        id,
      );
    const [admins, temps, hosts] = await Promise.all([contacts(1), contacts(2), d.nsset_id ? hostsOf(sql, d.nsset_id) : []]);
    return {
      ...empty,
      domain: {
        zone: d.zone,
        expires: d.exdate,
        validationExpires: d.val_exdate,
        registrant: { id: d.registrant_id, name: d.registrant },
        admins,
        temps,
        nsset: d.nsset_id && d.nsset ? { id: d.nsset_id, name: d.nsset } : null,
        keyset: d.keyset_id && d.keyset ? { id: d.keyset_id, name: d.keyset } : null,
        hosts,
      },
    };
  }
  const [{ references }] = await sql.query<{ references: number }>(
    `SELECT ((SELECT count(*) FROM domain d WHERE d.registrant = $1 OR d.nsset = $1 OR d.keyset = $1)
           + (SELECT count(*) FROM domain_contact_map m WHERE m.contactid = $1)
           + (SELECT count(*) FROM nsset_contact_map m WHERE m.contactid = $1)
           + (SELECT count(*) FROM keyset_contact_map m WHERE m.contactid = $1))::int AS references`,
    [id],
  );
  if (type === "contact") {
    const [c] = await sql.query<{ name: string | null; organization: string | null; email: string | null }>(
      "SELECT name, organization, email FROM contact WHERE id = $1",
      [id],
    );
    return { ...empty, contact: c ?? null, references };
  }
  const map = type === "nsset" ? "nsset_contact_map m WHERE m.nssetid = $1" : "keyset_contact_map m WHERE m.keysetid = $1";
  const [techContacts, hosts] = await Promise.all([
    refs(
      sql,
      `SELECT o.id, o.name FROM ${map.replace(" WHERE", " JOIN object_registry o ON o.id = m.contactid WHERE")} ORDER BY o.name`,
      id,
    ),
    type === "nsset" ? hostsOf(sql, id) : [],
  ]);
  return { ...empty, techContacts, hosts, references };
}
