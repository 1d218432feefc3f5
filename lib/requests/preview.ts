import "server-only";
import { render } from "../actions/message";
import { parseInput } from "../actions/result";
import { authorize } from "../auth/guard";
import { rolledBack } from "../db/driver";
import { descriptionLang } from "../i18n/config";
import { type Message, msg } from "../i18n/message";
import { getLocale } from "../i18n/server";
import { checkRequest, createRequestSchema } from "./rules";

// What a request would do, before it is made.

/** Raised inside a preview's transaction to roll it back after reading what the request would do. */
/**
 * What a request would do, computed by the registry's own rules: the request is checked (a refusal
 * comes back as it would on creation) and inserted in a transaction that is then rolled back, and
 * the object's periods from object_state_periods with and without it are compared.
 */
export async function previewStateRequest(input: unknown): Promise<{ message: string; lines: string[] }> {
  const { db } = await authorize("requests.write", "request.preview");
  const data = parseInput(createRequestSchema, input);
  // The lines are said here, in the request's language; the states' descriptions are in it too.
  const locale = await getLocale();
  const lines = await rolledBack(db.sql, async (tx) => {
    const [{ now }] = await tx.query<{ now: Date }>("SELECT now() AS now");
    const c = await checkRequest(tx, data, now);
    const periods = `SELECT s.name, coalesce(d.description, e.description) AS description, p.valid_from, p.valid_to,
                              ARRAY(SELECT x.command::text FROM console.object_state_command_refusal x WHERE x.state_id = s.id ORDER BY x.command) AS refuses
                         FROM console.object_state_periods(ARRAY[$1::int]) p JOIN enum_object_states s ON s.id = p.state_id
                         LEFT JOIN enum_object_states_desc d ON d.state_id = s.id AND d.lang = $3
                         LEFT JOIN enum_object_states_desc e ON e.state_id = s.id AND e.lang = 'EN'
                        WHERE p.valid_to IS NULL OR p.valid_to > $2`;
    type Period = { name: string; description: string | null; valid_from: Date; valid_to: Date | null; refuses: string[] };
    const lang = descriptionLang(locale);
    const before = await tx.query<Period>(periods, [c.object.id, now, lang]);
    await tx.query("INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to, crdate) VALUES ($1, $2, $3, $4, $5)", [
      c.object.id,
      c.state.id,
      c.from,
      c.to,
      now,
    ]);
    const after = await tx.query<Period>(periods, [c.object.id, now, lang]);
    const key = (p: Period) => `${p.name}|${p.valid_from.getTime()}|${p.valid_to?.getTime()}`;
    const had = new Set(before.map(key));
    const has = new Set(after.map(key));
    const label = (p: Period) => `${p.name} (${p.description ?? p.name})`;
    const object = c.object.name;
    const line = (p: Period): Message => {
      if (p.valid_from < now)
        return p.valid_to
          ? msg("preview.keepsUntil", { object, state: label(p), to: p.valid_to })
          : msg("preview.keepsOpen", { object, state: label(p) });
      return msg("preview.gets", {
        object,
        state: label(p),
        start: p.valid_from.getTime() === now.getTime() ? "now" : "later",
        from: p.valid_from,
        end: p.valid_to ? "until" : "open",
        to: p.valid_to ?? "",
        refused: p.refuses.length ? p.refuses.join(", ") : "none",
      });
    };
    const changes = [
      ...after.filter((p) => !had.has(key(p))).map((p) => ({ at: p.valid_from.getTime(), text: line(p) })),
      ...before
        .filter((p) => !has.has(key(p)) && p.valid_from > now)
        .map((p) => ({ at: p.valid_from.getTime(), text: msg("preview.noLongerGets", { object, state: p.name, from: p.valid_from }) })),
    ]
      .sort((a, b) => a.at - b.at)
      .map((l) => render(l.text, locale));
    return changes.length ? changes : [render(msg("preview.nothing", { state: c.state.name, object }), locale)];
  });
  return { message: lines.join(" "), lines };
}
