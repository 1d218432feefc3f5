import "server-only";
import * as z from "zod";
import { authorize } from "../auth/guard";
import { type Catalogue, filterSql, firstValue, type ObjectFilter, parseFilter } from "./filter";

export const PAGE_SIZES = [25, 50, 100, 500] as const;

export interface ObjectListRow {
  id: number;
  name: string;
  type: string;
  sponsoringRegistrar: string | null;
  created: string;
  /** Expiration date (domains), YYYY-MM-DD. */
  expires: string | null;
  /** Current states, catalogue names. */
  states: string[];
  /** Requests not canceled that start in the future. */
  pendingRequests: number;
}

export interface ObjectListPage {
  rows: ObjectListRow[];
  page: number;
  pageSize: number;
  total: number;
  pageCount: number;
  type: string | null;
  types: string[];
  filter: ObjectFilter;
  /** What was wrong with the URL and what was used instead. */
  notices: string[];
}

const rawQuerySchema = z.object({
  page: z.string().optional(),
  size: z.string().optional(),
});

interface ListRecord {
  id: number;
  name: string;
  type: string;
  registrar: string | null;
  crdate: Date;
  exdate: string | null;
  states: string[];
  pending: number;
}

/**
 * Lists objects by name, one page at a time, with the filters of the URL (see ./filter). Bad URL
 * values fall back to defaults with a notice.
 */
export async function listObjects(params: Record<string, string | string[] | undefined>): Promise<ObjectListPage> {
  const { db } = await authorize("registry.read", "objects.list");
  const raw = rawQuerySchema.parse({ page: firstValue(params.page), size: firstValue(params.size) });

  const catalogue: Catalogue = {
    types: await db.sql.query<{ id: number; name: string }>("SELECT id, name FROM enum_object_type ORDER BY id"),
    states: await db.sql.query<{ id: number; name: string }>("SELECT id, name FROM enum_object_states ORDER BY id"),
  };
  const { filter, notices } = parseFilter(params, catalogue);
  const type = catalogue.types.find((t) => t.id === filter.type)?.name ?? null;

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

  const { where, params: values } = filterSql(filter, new Date());
  const [{ total }] = await db.sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM object_registry o WHERE ${where}`, values);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  if (page > pageCount) {
    notices.push(`Page ${page} is past the end; showing the last page, ${pageCount}.`);
    page = pageCount;
  }

  const n = values.length;
  const records = await db.sql.query<ListRecord>(
    `SELECT o.id, o.name, t.name AS type, rg.handle AS registrar, o.crdate, d.exdate::text AS exdate,
            ARRAY(SELECT s.name FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
                   WHERE os.object_id = o.id AND os.valid_to IS NULL ORDER BY s.id) AS states,
            (SELECT count(*)::int FROM object_state_request r
              WHERE r.object_id = o.id AND r.canceled IS NULL AND r.valid_from > now()) AS pending
       FROM (SELECT o.* FROM object_registry o WHERE ${where} ORDER BY o.name, o.id LIMIT $${n + 1} OFFSET $${n + 2}) o
       JOIN enum_object_type t ON t.id = o.type
       LEFT JOIN object ob ON ob.id = o.id
       LEFT JOIN registrar rg ON rg.id = ob.clid
       LEFT JOIN domain d ON d.id = o.id
      ORDER BY o.name, o.id`,
    [...values, pageSize, (page - 1) * pageSize],
  );

  return {
    rows: records.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.type,
      sponsoringRegistrar: r.registrar,
      created: r.crdate.toISOString(),
      expires: r.exdate,
      states: r.states,
      pendingRequests: r.pending,
    })),
    page,
    pageSize,
    total,
    pageCount,
    type,
    types: catalogue.types.map((t) => t.name),
    filter,
    notices,
  };
}
