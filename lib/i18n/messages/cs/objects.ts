import type { Catalog } from "../catalog";
import type { objects as en } from "../en/objects";

export const objects: Catalog<typeof en> = {};
