import type { Catalog } from "../catalog";
import type { admin as en } from "../en/admin";

export const admin: Catalog<typeof en> = {};
