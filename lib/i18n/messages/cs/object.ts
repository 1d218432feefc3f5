import type { Catalog } from "../catalog";
import type { object as en } from "../en/object";

export const object: Catalog<typeof en> = {};
