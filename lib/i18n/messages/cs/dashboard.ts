import type { Catalog } from "../catalog";
import type { dashboard as en } from "../en/dashboard";

export const dashboard: Catalog<typeof en> = {};
