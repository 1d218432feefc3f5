import type { Catalog } from "../catalog";
import type { server as en } from "../en/server";

export const server: Catalog<typeof en> = {};
