import type { Catalog } from "../catalog";
import type { auth as en } from "../en/auth";

export const auth: Catalog<typeof en> = {};
