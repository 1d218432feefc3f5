import type { Catalog } from "../catalog";
import type { requests as en } from "../en/requests";

export const requests: Catalog<typeof en> = {};
