import type { Catalog } from "../catalog";
import type { reasons as en } from "../en/reasons";

export const reasons: Catalog<typeof en> = {};
