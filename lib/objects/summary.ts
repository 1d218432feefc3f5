import "server-only";
import { authorize } from "../auth/guard";

export interface ObjectSummary {
  id: number;
  name: string;
  type: string;
  sponsoringRegistrar: string | null;
  created: string;
  deleted: string | null;
  /** Domains: expiration date, YYYY-MM-DD. */
  expires: string | null;
  states: { name: string; description: string; manual: boolean; external: boolean; since: string }[];
  pendingRequests: { state: string; from: string; to: string | null }[];
}

/** One object's core facts and current states, or null when there is no object with that id. */
export async function objectSummary(id: number): Promise<ObjectSummary | null> {
  const { db } = await authorize("registry.read", "objects.summary");
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  const [object] = await db.sql.query<{
    id: number;
    name: string;
    type: string;
    registrar: string | null;
    crdate: Date;
    erdate: Date | null;
    exdate: string | null;
  }>(
    `SELECT o.id, o.name, t.name AS type, rg.handle AS registrar, o.crdate, o.erdate, d.exdate
       FROM object_registry o JOIN enum_object_type t ON t.id = o.type
       LEFT JOIN object ob ON ob.id = o.id LEFT JOIN registrar rg ON rg.id = ob.clid
       LEFT JOIN domain d ON d.id = o.id
      WHERE o.id = $1`,
    [id],
  );
  if (!object) return null;
  const [states, requests] = await Promise.all([
    db.sql.query<{ name: string; description: string | null; manual: boolean; external: boolean; valid_from: Date }>(
      `SELECT s.name, d.description, s.manual, s.external, os.valid_from
         FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
         LEFT JOIN enum_object_states_desc d ON d.state_id = s.id AND d.lang = 'EN'
        WHERE os.object_id = $1 AND os.valid_to IS NULL ORDER BY s.importance DESC NULLS LAST, s.id`,
      [id],
    ),
    db.sql.query<{ name: string; valid_from: Date; valid_to: Date | null }>(
      `SELECT s.name, r.valid_from, r.valid_to FROM object_state_request r JOIN enum_object_states s ON s.id = r.state_id
        WHERE r.object_id = $1 AND r.canceled IS NULL AND r.valid_from > now() ORDER BY r.valid_from, r.id`,
      [id],
    ),
  ]);
  return {
    id: object.id,
    name: object.name,
    type: object.type,
    sponsoringRegistrar: object.registrar,
    created: object.crdate.toISOString(),
    deleted: object.erdate?.toISOString() ?? null,
    expires: object.exdate,
    states: states.map((s) => ({
      name: s.name,
      description: s.description ?? s.name,
      manual: s.manual,
      external: s.external,
      since: s.valid_from.toISOString(),
    })),
    pendingRequests: requests.map((r) => ({ state: r.name, from: r.valid_from.toISOString(), to: r.valid_to?.toISOString() ?? null })),
  };
}
