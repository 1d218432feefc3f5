import { Rng } from "./random";
import {
  CANCELLATION_REASONS,
  CITIES,
  CREATION_REASONS,
  DOMAIN_WORDS,
  FIRST_NAMES,
  FOREIGN_COUNTRIES,
  HOSTING_WORDS,
  ORGANIZATION_KINDS,
  REGISTRARS,
  STREETS,
  SURNAMES,
} from "./words";

/**
 * A deterministic, realistic demo registry: the same options give the same rows, row for row.
 * Dates are placed relative to `now` so that every automatic state's condition occurs: domains
 * expire from two years ago to two years ahead, some have no nsset, ENUM domains have validation
 * dates on both sides of today, and some contacts, nssets and keysets are unreferenced and old.
 */
export interface DemoOptions {
  domains: number;
  seed: number;
  now: Date;
  timeZone: string;
}

export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

export type TableName =
  | "registrar"
  | "zone"
  | "history"
  | "object_registry"
  | "object"
  | "object_history"
  | "contact"
  | "nsset"
  | "keyset"
  | "host"
  | "host_ipaddr_map"
  | "domain"
  | "enumval"
  | "domain_contact_map"
  | "nsset_contact_map"
  | "keyset_contact_map"
  | "object_state_request"
  | "object_state_request_reason";

export interface Batch {
  table: TableName;
  rows: Row[];
}

export interface DemoChunk {
  phase: string;
  batches: Batch[];
  /** Objects generated so far and in all. */
  done: number;
  total: number;
}

export interface DemoCounts {
  registrars: number;
  contacts: number;
  nssets: number;
  keysets: number;
  domains: number;
  enumDomains: number;
  deletedContacts: number;
  deletedNssets: number;
  deletedDomains: number;
}

const TYPE = { contact: 1, nsset: 2, domain: 3, keyset: 4 } as const;
const STATE = {
  serverDeleteProhibited: 1,
  serverRenewProhibited: 2,
  serverTransferProhibited: 3,
  serverUpdateProhibited: 4,
  serverOutzoneManual: 5,
  serverInzoneManual: 6,
  serverBlocked: 7,
  serverRegistrantChangeProhibited: 18,
} as const;

const DAY = 86_400_000;
const HOUR = 3_600_000;
const CHUNK = 5_000;
const CZ_ZONE = 1;
const ENUM_ZONE = 2;

/** Share of each population that no domain references (candidates for deleteCandidate). */
const UNLINKED_SHARE = { contact: 0.1, nsset: 0.1, keyset: 0.15 };

export function demoCounts(domains: number): DemoCounts {
  return {
    registrars: REGISTRARS.length + 1,
    contacts: Math.max(10, Math.ceil(domains / 3)),
    nssets: Math.max(10, Math.ceil(domains / 10)),
    keysets: Math.max(10, Math.ceil(domains / 30)),
    domains,
    enumDomains: Math.min(domains, Math.max(6, Math.ceil(domains * 0.03))),
    deletedContacts: Math.ceil(domains / 50),
    deletedNssets: Math.ceil(domains / 200),
    deletedDomains: Math.ceil(domains / 20),
  };
}

/** The calendar date of `instant` in `timeZone`, as YYYY-MM-DD. */
export function localDate(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function ascii(text: string): string {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
}

/** Object ids: each population occupies a contiguous range, in creation order of the generator. */
function idLayout(c: DemoCounts) {
  const contact = 1;
  const nsset = contact + c.contacts;
  const keyset = nsset + c.nssets;
  const domain = keyset + c.keysets;
  const deletedContact = domain + c.domains;
  const deletedNsset = deletedContact + c.deletedContacts;
  const deletedDomain = deletedNsset + c.deletedNssets;
  return { contact, nsset, keyset, domain, deletedContact, deletedNsset, deletedDomain };
}

/**
 * Domain names come from a bijection of the index onto (word, word, number), so they are unique
 * without bookkeeping and look like names people register.
 */
function domainLabel(index: number, capacity: number): string {
  const w = DOMAIN_WORDS.length;
  const perSuffix = w * w;
  const space = perSuffix * Math.max(1, Math.ceil(capacity / perSuffix));
  const prime = 1_000_003;
  const permuted = Number((BigInt(index) * BigInt(prime)) % BigInt(space));
  const first = DOMAIN_WORDS[permuted % w];
  const second = DOMAIN_WORDS[Math.floor(permuted / w) % w];
  const suffix = Math.floor(permuted / perSuffix);
  const base = first === second ? first : `${first}-${second}`;
  return suffix === 0 ? base : `${base}${suffix}`;
}

function enumName(index: number): string {
  const number = String(200_000_000 + ((index * 7_919) % 700_000_000)).padStart(9, "0");
  return `${[...number].reverse().join(".")}.0.2.4.e164.arpa`;
}

interface Context {
  options: DemoOptions;
  counts: DemoCounts;
  ids: ReturnType<typeof idLayout>;
  nowMs: number;
  today: string;
  requestId: number;
  hostId: number;
  addressId: number;
  historyId: number;
}

function registrarId(rng: Rng): number {
  return rng.weighted(REGISTRARS.map(([, , weight], i) => [i + 2, weight] as const));
}

function linkedPool(count: number, share: number): number {
  return Math.max(1, Math.floor(count * (1 - share)));
}

/**
 * FRED's history of an object, as its programs leave it: one `history` and `object_history` row per
 * version (creation, then each transfer or update, in time order), each version's `valid_to` and
 * `next` the following one's start and id (trigger object_registry_update_history_rec), the last
 * one open, or ended at `erdate` for a deleted object; `object_registry.crhistoryid` and `historyid`
 * point at the first and the last. The per-type history rows (domain_history, …) copy the object's
 * data for each version; the demo's objects keep their data, so the loader copies them in bulk.
 */
function pushVersions(
  ctx: Context,
  batches: Map<TableName, Row[]>,
  registry: Row,
  object: Row,
  crid: number,
  erdateMs: number | null,
): void {
  const crdateMs = Date.parse(String(registry.crdate));
  const trdateMs = object.trdate === null ? null : Date.parse(String(object.trdate));
  const updateMs = object.update === null ? null : Date.parse(String(object.update));
  const starts = [...new Set([crdateMs, trdateMs, updateMs].filter((t): t is number => t !== null))].sort((a, b) => a - b);
  const first = ctx.historyId;
  ctx.historyId += starts.length;
  starts.forEach((at, i) => {
    const last = i === starts.length - 1;
    const after = (t: number | null) => t !== null && t <= at;
    push(batches, "history", {
      id: first + i,
      valid_from: iso(at),
      valid_to: last ? (erdateMs === null ? null : iso(erdateMs)) : iso(starts[i + 1]),
      next: last ? null : first + i + 1,
    });
    push(batches, "object_history", {
      historyid: first + i,
      id: registry.id,
      clid: after(trdateMs) ? object.clid : crid,
      upid: after(updateMs) ? object.upid : null,
      trdate: after(trdateMs) ? object.trdate : null,
      update: after(updateMs) ? object.update : null,
      authinfopw: object.authinfopw,
    });
  });
  registry.crhistoryid = first;
  registry.historyid = first + starts.length - 1;
}

/** Registry row, object row and history of a live object: its creation, and a transfer and an update for some. */
function liveObject(
  ctx: Context,
  rng: Rng,
  batches: Map<TableName, Row[]>,
  id: number,
  type: number,
  name: string,
  roid: string,
  crdateMs: number,
): void {
  const clid = registrarId(rng);
  const transferred = rng.chance(0.15);
  const crid = transferred ? registrarId(rng) : clid;
  const span = Math.max(HOUR, ctx.nowMs - crdateMs);
  const trdate = transferred ? iso(crdateMs + Math.floor(rng.next() * span)) : null;
  const update = rng.chance(0.4) ? iso(crdateMs + Math.floor(rng.next() * span)) : null;
  const registry: Row = { id, roid, type, name, crid, crdate: iso(crdateMs), erdate: null };
  const object: Row = { id, clid, upid: update ? clid : null, trdate, update, authinfopw: rng.text(10) };
  pushVersions(ctx, batches, registry, object, crid, null);
  push(batches, "object_registry", registry);
  push(batches, "object", object);
}

function contactRows(ctx: Context, index: number, batches: Map<TableName, Row[]>): void {
  const rng = new Rng(ctx.options.seed, "contact", index);
  const id = ctx.ids.contact + index;
  const first = rng.pick(FIRST_NAMES);
  const surname = rng.pick(SURNAMES);
  const handle = `${ascii(surname).toUpperCase()}-${ascii(first).slice(0, 1).toUpperCase()}${String(index + 1).padStart(6, "0")}`;
  const crdateMs = linkableCrdate(ctx, rng, index, ctx.counts.contacts, UNLINKED_SHARE.contact, 15);
  liveObject(ctx, rng, batches, id, TYPE.contact, handle, roid("C", id), crdateMs);
  const [city, postalcode] = rng.pick(CITIES);
  const isOrganization = rng.chance(0.2);
  const domestic = rng.chance(0.92);
  push(batches, "contact", {
    id,
    name: `${first} ${surname}`,
    organization: isOrganization ? `${surname} ${rng.pick(ORGANIZATION_KINDS)}` : null,
    street1: `${rng.pick(STREETS)} ${rng.int(1, 2500)}`,
    city,
    postalcode,
    country: domestic ? "CZ" : rng.pick(FOREIGN_COUNTRIES),
    telephone: `+420.${rng.int(600_000_000, 799_999_999)}`,
    email: `${ascii(first).toLowerCase()}.${ascii(surname).toLowerCase()}${index}@example.cz`,
    vat: isOrganization ? `CZ${rng.int(10_000_000, 99_999_999)}` : null,
    discloseaddress: !isOrganization ? rng.chance(0.3) : true,
  });
  if (rng.chance(0.01)) {
    const start = Math.max(crdateMs + DAY, ctx.nowMs - rng.int(10, 400) * DAY);
    const states = rng.chance(0.5)
      ? [STATE.serverBlocked, STATE.serverDeleteProhibited, STATE.serverTransferProhibited, STATE.serverUpdateProhibited]
      : [STATE.serverTransferProhibited];
    addRequests(ctx, rng, batches, id, states, start, null, null, rng.pick(CREATION_REASONS.object));
  }
}

function nssetRows(ctx: Context, index: number, batches: Map<TableName, Row[]>): void {
  const rng = new Rng(ctx.options.seed, "nsset", index);
  const id = ctx.ids.nsset + index;
  const crdateMs = linkableCrdate(ctx, rng, index, ctx.counts.nssets, UNLINKED_SHARE.nsset, 12);
  const provider = rng.pick(HOSTING_WORDS);
  const handle = `NSS-${provider.toUpperCase()}-${index + 1}`;
  liveObject(ctx, rng, batches, id, TYPE.nsset, handle, roid("N", id), crdateMs);
  push(batches, "nsset", { id, checklevel: rng.int(0, 3) });
  const hostCount = rng.weighted([
    [2, 70],
    [3, 25],
    [4, 5],
  ] as const);
  for (let h = 1; h <= hostCount; h++) {
    const hostId = ctx.hostId++;
    push(batches, "host", { id: hostId, nssetid: id, fqdn: `ns${h}.${provider}${index % 97}.cz` });
    const addresses = [`${rng.pick(["192.0.2", "198.51.100", "203.0.113"])}.${rng.int(1, 254)}`];
    if (rng.chance(0.5)) addresses.push(`2001:db8:${(index % 65_535).toString(16)}::${h}`);
    for (const ipaddr of addresses) push(batches, "host_ipaddr_map", { id: ctx.addressId++, hostid: hostId, nssetid: id, ipaddr });
  }
  for (const contactid of distinctContacts(ctx, rng, rng.int(1, 2))) {
    push(batches, "nsset_contact_map", { nssetid: id, contactid });
  }
  if (rng.chance(0.01)) {
    const start = Math.max(crdateMs + DAY, ctx.nowMs - rng.int(10, 400) * DAY);
    addRequests(ctx, rng, batches, id, [STATE.serverUpdateProhibited], start, null, null, rng.pick(CREATION_REASONS.object));
  }
}

function keysetRows(ctx: Context, index: number, batches: Map<TableName, Row[]>): void {
  const rng = new Rng(ctx.options.seed, "keyset", index);
  const id = ctx.ids.keyset + index;
  const crdateMs = linkableCrdate(ctx, rng, index, ctx.counts.keysets, UNLINKED_SHARE.keyset, 8);
  const handle = `KID-${rng.text(6, "ABCDEFGHJKLMNPQRSTUVWXYZ").toUpperCase()}-${index + 1}`;
  liveObject(ctx, rng, batches, id, TYPE.keyset, handle, roid("K", id), crdateMs);
  push(batches, "keyset", { id });
  for (const contactid of distinctContacts(ctx, rng, 1)) {
    push(batches, "keyset_contact_map", { keysetid: id, contactid });
  }
}

/**
 * Creation time of a contact, nsset or keyset. Referenced ones may be any age; of the unreferenced
 * rest, the first half is past the six-month protection period (deleteCandidate) and the second
 * half is young and still protected.
 */
function linkableCrdate(ctx: Context, rng: Rng, index: number, count: number, unlinkedShare: number, maxYears: number): number {
  const pool = linkedPool(count, unlinkedShare);
  const young = index >= pool + (count - pool) / 2;
  const days = young ? rng.int(1, 150) : rng.int(index < pool ? 30 : 200, maxYears * 365);
  return ctx.nowMs - days * DAY - rng.int(0, 23) * HOUR;
}

function roid(prefix: "C" | "N" | "K" | "D", id: number): string {
  return `${prefix}${String(id).padStart(10, "0")}-CZ`;
}

/** Distinct contacts from the referenced pool. */
function distinctContacts(ctx: Context, rng: Rng, count: number): number[] {
  const pool = linkedPool(ctx.counts.contacts, UNLINKED_SHARE.contact);
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, pool)) chosen.add(ctx.ids.contact + rng.int(0, pool - 1));
  return [...chosen];
}

/**
 * Expiration dates, days from today. The first domains are fixed so that even a tiny registry
 * shows every stage of the expiry flow; the rest spread from two years ago to two years ahead.
 */
const SHOWCASE_EXDATE_OFFSETS = [400, 20, 0, -10, -31, -40, -46, -60, -300, 200, 100, 15];
const SHOWCASE_VALIDATION_OFFSETS = [-5, 10, 25, 0, 60, 200];
/**
 * The domain with a long history (support needs one to read): ten years old, taken out of the
 * zone for three days and locked for updates for two days every month: some 360 history periods.
 */
const LONG_HISTORY_INDEX = SHOWCASE_EXDATE_OFFSETS.length;

function exdateOffset(rng: Rng, index: number): number {
  if (index < SHOWCASE_EXDATE_OFFSETS.length) return SHOWCASE_EXDATE_OFFSETS[index];
  return rng.chance(0.75) ? rng.int(0, 730) : rng.int(-730, -1);
}

function domainRows(ctx: Context, index: number, batches: Map<TableName, Row[]>): void {
  const rng = new Rng(ctx.options.seed, "domain", index);
  const id = ctx.ids.domain + index;
  const enumIndex = index - (ctx.counts.domains - ctx.counts.enumDomains);
  const isEnum = enumIndex >= 0;
  const name = isEnum ? enumName(enumIndex) : `${domainLabel(index, ctx.counts.domains + ctx.counts.deletedDomains)}.cz`;
  const exdate = addDays(ctx.today, exdateOffset(rng, index));
  const years = index === LONG_HISTORY_INDEX ? 11 : rng.int(1, 10);
  const crdateMs = Math.min(
    Date.parse(`${addDays(exdate, -365 * years)}T00:00:00Z`) + rng.int(6, 20) * HOUR + rng.int(0, 59) * 60_000,
    ctx.nowMs - rng.int(1, 30) * DAY,
  );
  liveObject(ctx, rng, batches, id, TYPE.domain, name, roid("D", id), crdateMs);

  const contactPool = linkedPool(ctx.counts.contacts, UNLINKED_SHARE.contact);
  const nssetPool = linkedPool(ctx.counts.nssets, UNLINKED_SHARE.nsset);
  const keysetPool = linkedPool(ctx.counts.keysets, UNLINKED_SHARE.keyset);
  // Index-based picks for the first domains make sure every pooled object is referenced.
  const registrant = ctx.ids.contact + (index < contactPool ? index : rng.int(0, contactPool - 1));
  const withoutNsset = index === 5 || index === 11 || (index >= SHOWCASE_EXDATE_OFFSETS.length && rng.chance(0.06));
  const nsset = withoutNsset ? null : ctx.ids.nsset + (index < nssetPool ? index : rng.int(0, nssetPool - 1));
  const keyset = index < keysetPool || rng.chance(0.25) ? ctx.ids.keyset + (index < keysetPool ? index : rng.int(0, keysetPool - 1)) : null;
  push(batches, "domain", { id, zone: isEnum ? ENUM_ZONE : CZ_ZONE, registrant, nsset, exdate, keyset });
  if (isEnum) {
    const offset = enumIndex < SHOWCASE_VALIDATION_OFFSETS.length ? SHOWCASE_VALIDATION_OFFSETS[enumIndex] : rng.int(-60, 400);
    push(batches, "enumval", { domainid: id, exdate: addDays(ctx.today, offset), publish: rng.chance(0.3) });
  }
  const adminCount = rng.weighted([
    [0, 15],
    [1, 60],
    [2, 25],
  ] as const);
  const others = distinctContacts(ctx, rng, adminCount + 1).filter((c) => c !== registrant);
  others.slice(0, adminCount).forEach((contactid) => {
    push(batches, "domain_contact_map", { domainid: id, contactid, role: 1 });
  });
  if (rng.chance(0.03) && others.length > adminCount) {
    push(batches, "domain_contact_map", { domainid: id, contactid: others[adminCount], role: 2 });
  }
  domainRequests(ctx, rng, batches, id, index, crdateMs);
}

type Scenario =
  | "lock"
  | "blockActive"
  | "blockPast"
  | "blockFuture"
  | "blockCanceledBeforeStart"
  | "blockThenLock"
  | "outzoneActive"
  | "outzoneFuture"
  | "inzone"
  | "renew"
  | "registrantChange"
  | "lockCanceled";

const SCENARIOS: readonly (readonly [Scenario, number])[] = [
  ["lock", 30],
  ["blockActive", 12],
  ["blockPast", 10],
  ["blockFuture", 6],
  ["blockCanceledBeforeStart", 4],
  ["blockThenLock", 5],
  ["outzoneActive", 8],
  ["outzoneFuture", 4],
  ["inzone", 6],
  ["renew", 4],
  ["registrantChange", 5],
  ["lockCanceled", 6],
];

/** The showcase domains each carry one scenario, so small demo registries have every kind. */
function scenarioFor(rng: Rng, index: number): Scenario | null {
  const showcase = index - SHOWCASE_EXDATE_OFFSETS.length;
  if (showcase >= 0 && showcase < SCENARIOS.length) return SCENARIOS[showcase][0];
  return rng.chance(0.05) ? rng.weighted(SCENARIOS) : null;
}

const BLOCK = [STATE.serverBlocked, STATE.serverDeleteProhibited, STATE.serverTransferProhibited, STATE.serverUpdateProhibited];

function domainRequests(ctx: Context, rng: Rng, batches: Map<TableName, Row[]>, id: number, index: number, crdateMs: number): void {
  if (index === LONG_HISTORY_INDEX) {
    longHistory(ctx, rng, batches, id, crdateMs);
    return;
  }
  const scenario = scenarioFor(rng, index);
  if (!scenario) return;
  const now = ctx.nowMs;
  const earliest = crdateMs + DAY;
  const at = (daysAgo: number) => Math.max(earliest, now - daysAgo * DAY - rng.int(0, 23) * HOUR);
  const ahead = (days: number) => now + days * DAY + rng.int(0, 23) * HOUR;
  const reason = (kind: keyof typeof CREATION_REASONS) => rng.pick(CREATION_REASONS[kind]);
  switch (scenario) {
    case "lock":
      addRequests(ctx, rng, batches, id, [STATE.serverTransferProhibited], at(rng.int(1, 900)), null, null, reason("lock"));
      return;
    case "blockActive":
      addRequests(
        ctx,
        rng,
        batches,
        id,
        BLOCK,
        at(rng.int(1, 300)),
        rng.chance(0.5) ? null : ahead(rng.int(10, 200)),
        null,
        reason("block"),
      );
      return;
    case "blockPast": {
      const start = at(rng.int(400, 1000));
      const end = Math.min(now - DAY, start + rng.int(30, 300) * DAY);
      if (end > start) addRequests(ctx, rng, batches, id, BLOCK, start, end, null, reason("block"));
      return;
    }
    case "blockFuture":
      addRequests(ctx, rng, batches, id, BLOCK, ahead(rng.int(1, 60)), ahead(rng.int(90, 240)), null, reason("block"));
      return;
    case "blockCanceledBeforeStart": {
      // Canceled before it began, stored as FRED's programs accept it: canceled at its start (an
      // empty period; libfred refuses new requests while a row ends before it begins).
      const start = ahead(rng.int(20, 60));
      addRequests(ctx, rng, batches, id, BLOCK, start, ahead(rng.int(90, 200)), start, reason("block"));
      return;
    }
    case "blockThenLock": {
      const start = at(rng.int(500, 900));
      const end = Math.min(now - 2 * DAY, start + rng.int(30, 200) * DAY);
      if (end <= start) return;
      addRequests(ctx, rng, batches, id, BLOCK, start, end, null, reason("block"));
      addRequests(ctx, rng, batches, id, [STATE.serverTransferProhibited], end + DAY, null, null, reason("lock"));
      return;
    }
    case "outzoneActive":
      addRequests(ctx, rng, batches, id, [STATE.serverOutzoneManual], at(rng.int(1, 40)), ahead(rng.int(5, 90)), null, reason("outzone"));
      return;
    case "outzoneFuture":
      addRequests(
        ctx,
        rng,
        batches,
        id,
        [STATE.serverOutzoneManual],
        ahead(rng.int(1, 20)),
        ahead(rng.int(30, 90)),
        null,
        reason("outzone"),
      );
      return;
    case "inzone": {
      const start = rng.chance(0.5) ? at(rng.int(1, 5)) : at(rng.int(60, 400));
      addRequests(ctx, rng, batches, id, [STATE.serverInzoneManual], start, start + 7 * DAY, null, reason("inzone"));
      return;
    }
    case "renew":
      addRequests(ctx, rng, batches, id, [STATE.serverRenewProhibited], at(rng.int(1, 200)), null, null, reason("renew"));
      return;
    case "registrantChange":
      addRequests(
        ctx,
        rng,
        batches,
        id,
        [STATE.serverRegistrantChangeProhibited],
        at(rng.int(1, 300)),
        null,
        null,
        reason("registrantChange"),
      );
      return;
    case "lockCanceled": {
      const start = at(rng.int(100, 600));
      const canceled = Math.min(now - HOUR, start + rng.int(10, 90) * DAY);
      if (canceled > start) {
        addRequests(
          ctx,
          rng,
          batches,
          id,
          [STATE.serverTransferProhibited, STATE.serverUpdateProhibited],
          start,
          null,
          canceled,
          reason("lock"),
        );
      }
      return;
    }
  }
}

/** Monthly maintenance windows from a month after creation until last month (LONG_HISTORY_INDEX). */
function longHistory(ctx: Context, rng: Rng, batches: Map<TableName, Row[]>, id: number, crdateMs: number): void {
  for (let start = crdateMs + 30 * DAY; start + 30 * DAY < ctx.nowMs; start += 30 * DAY) {
    addRequests(ctx, rng, batches, id, [STATE.serverOutzoneManual], start, start + 3 * DAY, null, "Monthly DNS maintenance window");
    addRequests(ctx, rng, batches, id, [STATE.serverUpdateProhibited], start + 10 * DAY, start + 12 * DAY, null, "Monthly audit freeze");
  }
}

/** One request per state over the same period; a shared reason, as FRED's blocking stores it. */
function addRequests(
  ctx: Context,
  rng: Rng,
  batches: Map<TableName, Row[]>,
  objectId: number,
  states: readonly number[],
  fromMs: number,
  toMs: number | null,
  canceledMs: number | null,
  reason: string,
): void {
  const crdateMs = Math.min(fromMs, ctx.nowMs, canceledMs ?? Number.POSITIVE_INFINITY) - rng.int(1, 72) * HOUR;
  for (const stateId of states) {
    const id = ctx.requestId++;
    push(batches, "object_state_request", {
      id,
      object_id: objectId,
      state_id: stateId,
      valid_from: iso(fromMs),
      valid_to: toMs === null ? null : iso(toMs),
      crdate: iso(crdateMs),
      canceled: canceledMs === null ? null : iso(canceledMs),
    });
    push(batches, "object_state_request_reason", {
      object_state_request_id: id,
      reason_creation: reason,
      reason_cancellation: canceledMs === null ? null : rng.pick(CANCELLATION_REASONS),
    });
  }
}

function deletedRows(ctx: Context, kind: "contact" | "nsset" | "domain", index: number, batches: Map<TableName, Row[]>): void {
  const rng = new Rng(ctx.options.seed, `deleted-${kind}`, index);
  const crdateMs = ctx.nowMs - rng.int(400, 12 * 365) * DAY;
  const erdateMs = crdateMs + rng.int(200, Math.max(201, Math.floor((ctx.nowMs - crdateMs) / DAY) - 1)) * DAY;
  const [id, name, prefix] =
    kind === "domain"
      ? [
          ctx.ids.deletedDomain + index,
          `${domainLabel(ctx.counts.domains + index, ctx.counts.domains + ctx.counts.deletedDomains)}.cz`,
          "D" as const,
        ]
      : kind === "contact"
        ? [
            ctx.ids.deletedContact + index,
            `${ascii(rng.pick(SURNAMES)).toUpperCase()}-DEL${String(index + 1).padStart(6, "0")}`,
            "C" as const,
          ]
        : [ctx.ids.deletedNsset + index, `NSS-DELETED-${index + 1}`, "N" as const];
  const crid = registrarId(rng);
  const deletedMs = Math.min(erdateMs, ctx.nowMs - DAY);
  const registry: Row = { id, roid: roid(prefix, id), type: TYPE[kind], name, crid, crdate: iso(crdateMs), erdate: iso(deletedMs) };
  // Its last version, as deletion left it (the live object's row is gone).
  const object: Row = { id, clid: crid, upid: null, trdate: null, update: null, authinfopw: null };
  pushVersions(ctx, batches, registry, object, crid, deletedMs);
  push(batches, "object_registry", registry);
}

function push(batches: Map<TableName, Row[]>, table: TableName, row: Row): void {
  let rows = batches.get(table);
  if (!rows) {
    rows = [];
    batches.set(table, rows);
  }
  rows.push(row);
}

// Foreign keys decide the order in which a chunk's tables are written.
export const TABLE_ORDER: TableName[] = [
  "registrar",
  "zone",
  "history",
  "object_registry",
  "object",
  "object_history",
  "contact",
  "nsset",
  "keyset",
  "host",
  "host_ipaddr_map",
  "nsset_contact_map",
  "keyset_contact_map",
  "domain",
  "enumval",
  "domain_contact_map",
  "object_state_request",
  "object_state_request_reason",
];

function toBatches(batches: Map<TableName, Row[]>): Batch[] {
  return TABLE_ORDER.filter((t) => batches.has(t)).map((table) => ({ table, rows: batches.get(table) as Row[] }));
}

function registrarAndZoneRows(): Map<TableName, Row[]> {
  const batches = new Map<TableName, Row[]>();
  push(batches, "registrar", {
    id: 1,
    handle: "REG-REGISTRY",
    name: "Registry operator (system registrar)",
    organization: "Registry operator",
    // FRED requires a tax id, street, postal code and telephone of every registrar.
    dic: "CZ00000001",
    street1: "Milešovská 5",
    city: "Praha",
    postalcode: "130 00",
    country: "CZ",
    telephone: "+420.222745111",
    email: "registry@example.cz",
    url: "https://registry.example.cz",
    system: true,
  });
  REGISTRARS.forEach(([handle, name], i) => {
    push(batches, "registrar", {
      id: i + 2,
      handle,
      name,
      organization: name,
      dic: `CZ${String(27_000_000 + i * 7_919).padStart(8, "0")}`,
      street1: `${STREETS[i % STREETS.length]} ${i + 1}`,
      city: CITIES[i % CITIES.length][0],
      postalcode: CITIES[i % CITIES.length][1],
      telephone: `+420.${String(220_000_000 + i * 1_013).padStart(9, "0")}`,
      country: handle === "REG-DUNAJ" ? "AT" : handle === "REG-ORBIS" ? "GB" : "CZ",
      email: `epp@${handle.slice(4).toLowerCase()}.example.cz`,
      url: `https://${handle.slice(4).toLowerCase()}.example.cz`,
      system: false,
    });
  });
  push(batches, "zone", { id: CZ_ZONE, fqdn: "cz", ex_period_min: 12, ex_period_max: 120, val_period: 0, dots_max: 1, enum_zone: false });
  push(batches, "zone", {
    id: ENUM_ZONE,
    fqdn: "0.2.4.e164.arpa",
    ex_period_min: 12,
    ex_period_max: 120,
    val_period: 6,
    dots_max: 9,
    enum_zone: true,
  });
  return batches;
}

/** Generates the demo registry in chunks of rows, in foreign-key order. */
export function* generateDemo(options: DemoOptions): Generator<DemoChunk> {
  const counts = demoCounts(options.domains);
  const ctx: Context = {
    options,
    counts,
    ids: idLayout(counts),
    nowMs: options.now.getTime(),
    today: localDate(options.now, options.timeZone),
    requestId: 1,
    hostId: 1,
    addressId: 1,
    historyId: 1,
  };
  const total =
    counts.contacts +
    counts.nssets +
    counts.keysets +
    counts.domains +
    counts.deletedContacts +
    counts.deletedNssets +
    counts.deletedDomains;
  let done = 0;
  yield { phase: "registrars", batches: toBatches(registrarAndZoneRows()), done, total };

  const populations: [string, number, (index: number, batches: Map<TableName, Row[]>) => void][] = [
    ["contacts", counts.contacts, (i, b) => contactRows(ctx, i, b)],
    ["nssets", counts.nssets, (i, b) => nssetRows(ctx, i, b)],
    ["keysets", counts.keysets, (i, b) => keysetRows(ctx, i, b)],
    ["domains", counts.domains, (i, b) => domainRows(ctx, i, b)],
    ["deleted contacts", counts.deletedContacts, (i, b) => deletedRows(ctx, "contact", i, b)],
    ["deleted nssets", counts.deletedNssets, (i, b) => deletedRows(ctx, "nsset", i, b)],
    ["deleted domains", counts.deletedDomains, (i, b) => deletedRows(ctx, "domain", i, b)],
  ];
  for (const [phase, count, build] of populations) {
    for (let start = 0; start < count; start += CHUNK) {
      const batches = new Map<TableName, Row[]>();
      const end = Math.min(count, start + CHUNK);
      for (let i = start; i < end; i++) build(i, batches);
      done += end - start;
      yield { phase, batches: toBatches(batches), done, total };
    }
  }
}
