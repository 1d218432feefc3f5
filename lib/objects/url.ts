// Links within the object list: the current URL's filters with some parameters changed. Used by
// the server page (pager, sort links) and the browser (filter form, export), so it stays pure.

/** Parameters that place a page; a new filter or order starts again from the first page. */
const POSITION_KEYS = ["after", "before", "last", "page"];

export type Changes = Record<string, string | null | undefined>;

/** The query string of `current` with `changes` applied (null or "" removes a key), empty values dropped. */
export function listQuery(current: URLSearchParams | Record<string, string | string[] | undefined>, changes: Changes = {}): string {
  const query = new URLSearchParams();
  const entries =
    current instanceof URLSearchParams
      ? [...current.entries()]
      : Object.entries(current).flatMap(([key, value]) => [value ?? []].flat().map((v) => [key, v] as [string, string]));
  for (const [key, value] of entries) if (value !== "" && !(key in changes)) query.append(key, value);
  for (const [key, value] of Object.entries(changes)) if (value) query.set(key, value);
  return query.toString();
}

export function listHref(current: Parameters<typeof listQuery>[0], changes: Changes = {}, path = "/objects"): string {
  const query = listQuery(current, changes);
  return query ? `${path}?${query}` : path;
}

/** Changes that drop the page position. */
export const fromStart = (changes: Changes = {}): Changes => ({
  ...Object.fromEntries(POSITION_KEYS.map((key) => [key, null])),
  ...changes,
});

/** For each sort key, the links that order the list by it ascending and descending, from the first page. */
export function sortLinks<K extends string>(
  current: Parameters<typeof listQuery>[0],
  keys: readonly K[],
): Record<K, { asc: string; desc: string }> {
  return Object.fromEntries(
    keys.map((key) => [
      key,
      {
        asc: listHref(current, fromStart({ sort: key === "name" ? null : key, count: null })),
        desc: listHref(current, fromStart({ sort: `-${key}`, count: null })),
      },
    ]),
  ) as Record<K, { asc: string; desc: string }>;
}
