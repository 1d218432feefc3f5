import "server-only";
import { authorize } from "../auth/guard";
import type { ConsoleExecutor } from "../db/driver";

/** One interval of an object's state history; `to` null = in force now. Names come from the catalogue. */
export interface StatePeriod {
  stateId: number;
  state: string;
  manual: boolean;
  external: boolean;
  from: string;
  to: string | null;
}

async function historyOf(db: ConsoleExecutor, objectId: number, openOnly: boolean): Promise<StatePeriod[]> {
  const rows = await db.prisma.objectState.findMany({
    where: { objectId, ...(openOnly ? { validTo: null } : {}) },
    include: { state: { select: { name: true, manual: true, external: true } } },
    orderBy: openOnly ? [{ stateId: "asc" }] : [{ validFrom: "asc" }, { stateId: "asc" }],
  });
  return rows.map((r) => ({
    stateId: r.stateId,
    state: r.state.name,
    manual: r.state.manual,
    external: r.state.external,
    from: r.validFrom.toISOString(),
    to: r.validTo?.toISOString() ?? null,
  }));
}

/** The states an object has now (the open rows of its history). */
export async function currentStates(objectId: number): Promise<StatePeriod[]> {
  const { db } = await authorize("registry.read", "states.current");
  return historyOf(db.sql, objectId, true);
}

/** The object's whole state history, oldest first. */
export async function stateHistory(objectId: number): Promise<StatePeriod[]> {
  const { db } = await authorize("registry.read", "states.history");
  return historyOf(db.sql, objectId, false);
}

/**
 * Ids of the objects that had `state` at the instant `at` (history, not rules), in id order after
 * `afterId`: "blocked on 1 March" is a question about what the registry recorded.
 */
export async function objectsInStateAt(state: string, at: Date, options: { afterId?: number; limit?: number } = {}): Promise<number[]> {
  const { db } = await authorize("registry.read", "states.objects_at");
  const rows = await db.prisma.objectState.findMany({
    where: {
      state: { name: state },
      validFrom: { lte: at },
      OR: [{ validTo: null }, { validTo: { gt: at } }],
      objectId: { gt: options.afterId ?? 0 },
    },
    orderBy: { objectId: "asc" },
    take: Math.min(Math.max(options.limit ?? 100, 1), 10_000),
    select: { objectId: true },
  });
  return rows.map((r) => r.objectId);
}
