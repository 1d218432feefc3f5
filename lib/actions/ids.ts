import * as z from "zod";
import { DB_INT_MAX } from "../input/values";
import { zodError } from "./message";

/** A row id from a form: a whole number from 1 to DB_INT_MAX (lib/input/values.ts), else "Unknown …". */
export const idSchema = (what: "object" | "request" | "block" | "user" | "token" | "securityKey" | "case" | "change") => {
  const error = zodError("input.unknown", { what });
  return z.coerce.number({ error }).int().positive({ error }).max(DB_INT_MAX, { error });
};
