import type { Locale } from "../config";
import type { Catalog } from "./catalog";
import { cs } from "./cs";
import { en } from "./en";

export type Messages = typeof en;
export const MESSAGES: Record<Locale, Catalog<Messages>> = { en, cs };

/**
 * The parts of the catalogue that client components translate (their useTranslations namespaces):
 * only these are sent to the browser with every page. lib/i18n/coverage.test.ts keeps the list
 * complete.
 */
export const CLIENT_NAMESPACES = [
  "common",
  "auth.signIn",
  "dashboard",
  "objects",
  "object.timeline",
  "object.form",
  "object.notFound",
  "requests.bulk.form",
  "admin.users.add",
  "admin.users.actions",
  "admin.tokens.form",
] as const;

type Tree = { [key: string]: string | Tree };
const clientCatalogues = new Map<Locale, Tree>();

/** The messages client components need, in `locale`: CLIENT_NAMESPACES of its catalogue, nested as there. */
export function clientMessages(locale: Locale): Tree {
  let picked = clientCatalogues.get(locale);
  if (!picked) {
    picked = {};
    for (const path of CLIENT_NAMESPACES) {
      const keys = path.split(".");
      let from = MESSAGES[locale] as unknown as Tree;
      let into = picked;
      keys.forEach((key, i) => {
        const value = from[key];
        if (i === keys.length - 1) into[key] = value;
        else {
          into[key] = (into[key] as Tree | undefined) ?? {};
          into = into[key] as Tree;
          from = value as Tree;
        }
      });
    }
    clientCatalogues.set(locale, picked);
  }
  return picked;
}
