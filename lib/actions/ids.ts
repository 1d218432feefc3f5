import * as z from "zod";

/** A row id from a form: a positive whole number that fits PostgreSQL's integer, else "Unknown …". */
export const idSchema = (what: string) =>
  z.coerce
    .number({ error: `Unknown ${what}.` })
    .int()
    .positive({ error: `Unknown ${what}.` })
    .max(2_147_483_647, { error: `Unknown ${what}.` });
