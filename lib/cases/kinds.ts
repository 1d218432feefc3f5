import "server-only";
import * as z from "zod";
import { auditedChange } from "../actions/change";
import { zodError } from "../actions/message";
import { InputError } from "../actions/result";
import { authorize } from "../auth/guard";
import { type Message, msg } from "../i18n/message";

// The kinds of case (issue 42: "the list configurable"). Administrators add a kind, rename it in
// both languages, move it in the list, and retire it: a retired kind is offered for no new case or
// approval rule; the cases and rules that name it keep it (a kind is never deleted, as a case's record names it).

export interface CaseKindRow {
  code: string;
  nameEn: string;
  nameCs: string;
  position: number;
  retired: boolean;
  /** How many cases are of this kind. */
  cases: number;
}

/** Every kind, retired ones too, with how many cases each has (administrators). */
export async function caseKindsAdmin(): Promise<CaseKindRow[]> {
  const { db } = await authorize("cases.policy", "case.kinds.read");
  return db.sql.query<CaseKindRow>(
    `SELECT k.code, k.name_en AS "nameEn", k.name_cs AS "nameCs", k.position, k.retired_at IS NOT NULL AS retired,
            (SELECT count(*)::int FROM console.cases c WHERE c.kind = k.code) AS cases
       FROM console.case_kinds k ORDER BY k.retired_at IS NOT NULL, k.position, k.code`,
  );
}

const nameSchema = z
  .string({ error: zodError("case.kindNameMissing") })
  .trim()
  .min(1, { error: zodError("case.kindNameMissing") })
  .max(100, { error: zodError("case.kindNameLong", { max: 100 }) });

const codeSchema = z
  .string({ error: zodError("case.kindCodeInvalid") })
  .trim()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, { error: zodError("case.kindCodeInvalid") });

const caseKindSchema = z.object({
  code: codeSchema,
  nameEn: nameSchema,
  nameCs: nameSchema,
  position: z.coerce
    .number({ error: zodError("case.kindPositionInvalid") })
    .int({ error: zodError("case.kindPositionInvalid") })
    .min(0, { error: zodError("case.kindPositionInvalid") })
    .max(1000, { error: zodError("case.kindPositionInvalid") }),
  /** A new kind (the add form's), not a change of one. */
  isNew: z.boolean().optional().default(false),
});

/** Adds a kind (`isNew`: a code in use is refused), or renames and moves one that exists (its code stays: cases and rules name it). */
export function saveCaseKind(input: unknown): Promise<{ message: Message }> {
  return auditedChange("cases.policy", "case.kind.save", caseKindSchema, input, async (tx, data) => {
    const values = [data.code, data.nameEn, data.nameCs, data.position];
    const saved = data.isNew
      ? await tx.query(
          "INSERT INTO console.case_kinds (code, name_en, name_cs, position) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING code",
          values,
        )
      : await tx.query("UPDATE console.case_kinds SET name_en = $2, name_cs = $3, position = $4 WHERE code = $1 RETURNING code", values);
    if (saved.length === 0)
      throw new InputError(msg(data.isNew ? "case.kindExists" : "case.kindUnknown", { kind: data.code }), { code: [msg("field.invalid")] });
    return {
      result: { message: msg(data.isNew ? "case.kindAdded" : "case.kindSaved", { kind: data.nameEn }) },
      audit: { input: data },
    };
  });
}

const retireCaseKindSchema = z.object({
  code: codeSchema,
  /** True: retire it; false: offer it again. */
  retire: z.boolean(),
});

/** Retires a kind (offered for no new case or rule), or offers a retired one again. */
export function retireCaseKind(input: unknown): Promise<{ message: Message }> {
  return auditedChange("cases.policy", "case.kind.retire", retireCaseKindSchema, input, async (tx, data) => {
    const [row] = await tx.query<{ name_en: string }>(
      `UPDATE console.case_kinds SET retired_at = CASE WHEN $2 THEN coalesce(retired_at, now()) END WHERE code = $1 RETURNING name_en`,
      [data.code, data.retire],
    );
    if (!row) throw new InputError(msg("case.kindUnknown", { kind: data.code }), { code: [msg("field.invalid")] });
    if (data.retire) {
      const [left] = await tx.query<{ count: number }>("SELECT count(*)::int AS count FROM console.case_kinds WHERE retired_at IS NULL");
      if (left.count === 0) throw new InputError(msg("case.kindLast"));
    }
    return {
      result: { message: msg(data.retire ? "case.kindRetired" : "case.kindOffered", { kind: row.name_en }) },
      audit: { input: data },
    };
  });
}
