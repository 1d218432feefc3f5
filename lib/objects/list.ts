import "server-only";
import * as z from "zod";
import { authorize } from "../auth/guard";

export const PAGE_SIZES = [25, 50, 100, 500] as const;

export interface ObjectListRow {
  id: number;
  name: string;
  type: string;
  sponsoringRegistrar: string | null;
  created: string;
}

export interface ObjectListPage {
  rows: ObjectListRow[];
  page: number;
  pageSize: number;
  total: number;
  pageCount: number;
  type: string | null;
  types: string[];
  /** What was wrong with the URL and what was used instead. */
  notices: string[];
}

const rawQuerySchema = z.object({
  page: z.string().optional(),
  size: z.string().optional(),
  type: z.string().optional(),
});

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Lists live objects by name, one page at a time. Bad URL values fall back to defaults with a notice. */
export async function listObjects(params: Record<string, string | string[] | undefined>): Promise<ObjectListPage> {
  const {
    db: { prisma },
  } = await authorize("registry.read", "objects.list");
  const raw = rawQuerySchema.parse({ page: first(params.page), size: first(params.size), type: first(params.type) });
  const notices: string[] = [];

  const types = (await prisma.objectType.findMany({ orderBy: { id: "asc" }, select: { name: true } })).map((t) => t.name);
  let type: string | null = null;
  if (raw.type) {
    if (types.includes(raw.type)) type = raw.type;
    else notices.push(`Unknown object type “${raw.type}”; showing all types.`);
  }

  let pageSize = 50;
  if (raw.size !== undefined) {
    const size = Number(raw.size);
    if ((PAGE_SIZES as readonly number[]).includes(size)) pageSize = size;
    else notices.push(`Page size “${raw.size}” is not one of ${PAGE_SIZES.join(", ")}; showing ${pageSize} per page.`);
  }

  let page = 1;
  if (raw.page !== undefined) {
    const requested = Number(raw.page);
    if (Number.isSafeInteger(requested) && requested >= 1) page = requested;
    else notices.push(`Page “${raw.page}” is not a page number; showing page 1.`);
  }

  const where = { erdate: null, ...(type ? { type: { name: type } } : {}) };
  const total = await prisma.objectRegistry.count({ where });
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  if (page > pageCount) {
    notices.push(`Page ${page} is past the end; showing the last page, ${pageCount}.`);
    page = pageCount;
  }

  const records = await prisma.objectRegistry.findMany({
    where,
    orderBy: [{ name: "asc" }, { id: "asc" }],
    skip: (page - 1) * pageSize,
    take: pageSize,
    select: {
      id: true,
      name: true,
      crdate: true,
      type: { select: { name: true } },
      object: { select: { sponsor: { select: { handle: true } } } },
    },
  });

  return {
    rows: records.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.type.name,
      sponsoringRegistrar: r.object?.sponsor.handle ?? null,
      created: r.crdate.toISOString(),
    })),
    page,
    pageSize,
    total,
    pageCount,
    type,
    types,
    notices,
  };
}
