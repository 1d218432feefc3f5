import type { Locale } from "../config";
import type { Catalog } from "./catalog";
import { cs } from "./cs";
import { en } from "./en";

export type Messages = typeof en;
export const MESSAGES: Record<Locale, Catalog<Messages>> = { en, cs };

export { CLIENT_NAMESPACES, clientMessages } from "./client";
