import type { Locale } from "../config";
import { csClient } from "./cs/client";
import { enClient } from "./en/client";

/**
 * The parts of the catalogue that client components translate (their useTranslations namespaces).
 * They are part of the browser's bundle (fetched once and cached), not of every page's HTML.
 * lib/i18n/coverage.test.ts keeps the list complete.
 */
export const CLIENT_NAMESPACES = [
  "common",
  "auth.signIn",
  "auth.account.proof",
  "auth.account.password",
  "auth.account.secondFactor",
  "auth.account.securityKeys",
  "dashboard",
  "objects",
  "object.timeline",
  "object.form",
  "object.blockChange",
  "object.notFound",
  "requests.bulk.form",
  "admin.users.add",
  "admin.users.actions",
  "admin.tokens.form",
] as const;

type Tree = { [key: string]: string | Tree };
const CATALOGUES: Record<Locale, Tree> = { en: enClient, cs: csClient };
const picked = new Map<Locale, Tree>();

/** The messages client components need, in `locale`: CLIENT_NAMESPACES of its catalogue, nested as there. */
export function clientMessages(locale: Locale): Tree {
  let messages = picked.get(locale);
  if (!messages) {
    messages = {};
    for (const path of CLIENT_NAMESPACES) {
      const keys = path.split(".");
      let from = CATALOGUES[locale];
      let into = messages;
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
    picked.set(locale, messages);
  }
  return messages;
}
