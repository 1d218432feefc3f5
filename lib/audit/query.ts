import "server-only";
import { authorize } from "../auth/guard";
import { readConfig } from "../config";
import type { Prisma } from "../generated/prisma/client";
import { type Message, msg } from "../i18n/message";
import { type Params, readParams } from "../input/params";
import { DB_INT_MAX, parseId, readInstant } from "../input/values";

export interface AuditRow {
  id: number;
  at: string;
  actor: string | null;
  role: string | null;
  sessionId: string | null;
  clientAddress: string | null;
  action: string;
  objectIds: number[];
  /** The objects by name (a deleted one too), in the order of objectIds; an id no object has keeps a null name. */
  objects: { id: number; name: string | null }[];
  input: Record<string, unknown>;
  result: string;
  errorCode: string | null;
}

export interface AuditPage {
  rows: AuditRow[];
  filters: { actor: string; action: string; object: string; from: string; to: string };
  /** What was wrong with the filters: messages, for the page to put into the reader's language. */
  notices: Message[];
  /** The id to continue below for the next (older) page, or null at the end. */
  nextBefore: number | null;
  actions: string[];
}

const PAGE_SIZE = 50;

/** Whether `action` is one of the log's `actions`, or a group of them (the words before a dot: "request" of "request.create"). */
function actionKnown(action: string, actions: readonly string[]): boolean {
  return actions.some((known) => known === action || known.startsWith(`${action}.`));
}

/** The audit log, newest first, filtered by actor, action, object and time (registry time zone). */
export async function listAudit(params: Params): Promise<AuditPage> {
  const { db } = await authorize("audit.read", "audit.list");
  const notices: Message[] = [];
  const param = readParams(params, notices);
  const text = (key: string) => param(key)?.slice(0, 200) ?? "";
  const filters = {
    actor: text("actor"),
    action: text("action"),
    object: text("object"),
    from: text("from"),
    to: text("to"),
  };
  const where: Prisma.AuditEntryWhereInput[] = [];
  if (filters.actor) where.push({ actor: { equals: filters.actor, mode: "insensitive" } });
  const actions = (await db.prisma.auditEntry.groupBy({ by: ["action"], orderBy: { action: "asc" } })).map((r) => r.action);
  if (filters.action) {
    // An action the log has, or a group of them ("request" for request.create, request.cancel, …); any other is named and ignored.
    if (actionKnown(filters.action, actions))
      where.push({ OR: [{ action: filters.action }, { action: { startsWith: `${filters.action}.` } }] });
    else {
      notices.push(msg("audit.noAction", { action: filters.action.slice(0, 40) }));
      filters.action = "";
    }
  }
  if (filters.object) {
    // An object id, else a name or handle (digits beyond an id's range may still be a handle).
    const id = parseId(filters.object);
    const match = id
      ? { id }
      : await db.prisma.objectRegistry.findFirst({
          where: { name: { in: [filters.object.toLowerCase(), filters.object.toUpperCase()] } },
          orderBy: [{ erdate: { sort: "desc", nulls: "first" } }, { id: "desc" }],
          select: { id: true },
        });
    if (match) where.push({ objectIds: { has: match.id } });
    else if (/^\d+$/.test(filters.object)) notices.push(msg("audit.noObjectId", { object: filters.object.slice(0, 40), max: DB_INT_MAX }));
    else notices.push(msg("audit.noObject", { object: filters.object }));
  }
  const timeZone = readConfig().registryTimeZone;
  for (const key of ["from", "to"] as const) {
    const value = filters[key];
    if (!value) continue;
    // Within INSTANT_SPAN_YEARS of now (readInstant), as every instant a person gives.
    const read = readInstant(value, timeZone);
    if (!read.instant) {
      notices.push(
        read.problem === "tooFar"
          ? msg("audit.instantTooFar", { value, key, years: read.years, earliest: read.earliest, latest: read.latest })
          : msg("audit.notInstant", { value, key }),
      );
      filters[key] = "";
      continue;
    }
    where.push({ at: key === "from" ? { gte: read.instant } : { lt: read.instant } });
  }
  // The page position: the last entry shown (audit entries' ids are bigint).
  const beforeText = text("before");
  if (beforeText) {
    const before = parseId(beforeText, Number.MAX_SAFE_INTEGER);
    if (before) where.push({ id: { lt: before } });
    else notices.push(msg("audit.position", { value: beforeText.slice(0, 40) }));
  }

  const rows = await db.prisma.auditEntry.findMany({
    where: { AND: where },
    orderBy: { id: "desc" },
    take: PAGE_SIZE + 1,
    omit: { prevHash: true, hash: true, actorId: true },
  });
  const page = rows.slice(0, PAGE_SIZE);
  const ids = [...new Set(page.flatMap((r) => r.objectIds))];
  const names = new Map(
    ids.length === 0
      ? []
      : (await db.prisma.objectRegistry.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } })).map(
          (o) => [o.id, o.name] as const,
        ),
  );
  return {
    rows: page.map((r) => ({
      ...r,
      id: Number(r.id),
      at: r.at.toISOString(),
      objects: r.objectIds.map((id) => ({ id, name: names.get(id) ?? null })),
      input: r.input as Record<string, unknown>,
    })),
    filters,
    notices,
    nextBefore: rows.length > PAGE_SIZE ? Number(page[page.length - 1].id) : null,
    actions,
  };
}
