import * as z from "zod";
import { zodError } from "./message";

/** A row id from a form: a positive whole number that fits PostgreSQL's integer, else "Unknown …". */
export const idSchema = (what: "object" | "request" | "block" | "user" | "token") => {
  const error = zodError("input.unknown", { what });
  return z.coerce.number({ error }).int().positive({ error }).max(2_147_483_647, { error });
};
