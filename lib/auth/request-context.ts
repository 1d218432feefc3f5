import { AsyncLocalStorage } from "node:async_hooks";
import { getToken } from "next-auth/jwt";
import { cache } from "react";
import { readConfig } from "../config";
import { type Database, getDatabase } from "../db/client";
import { clientAddressOf } from "../http/client-address";
import { isLocale, LOCALE_COOKIE, type Locale, negotiateLocale } from "../i18n/config";
import { sessionCookie } from "./session-cookie";

/** What the signed session cookie says: which console session it belongs to. */
interface SessionClaims {
  sid: string;
  uid: number;
}

/** Everything the data-access layer needs to know about the request it serves. */
export interface RequestContext {
  claims: SessionClaims | null;
  clientAddress: string | null;
  userAgent: string | null;
  /** The browser's language: its console-locale cookie, else its Accept-Language; null: neither names one. */
  locale?: Locale | null;
  /** Set by tests and command-line tools; requests use the process's database. */
  db?: Database;
}

const explicit = new AsyncLocalStorage<RequestContext>();

/**
 * Runs `work` as one request from outside Next: the command line (acting as a named user) and
 * tests (acting as any session, or none). Inside Next the context comes from the request itself.
 */
export function runWithRequest<T>(context: RequestContext, work: () => Promise<T>): Promise<T> {
  return explicit.run(context, work);
}

/** The request Next is serving, read once per render (React's request cache: one token decode). */
const fromNextRequest = cache(async (): Promise<RequestContext> => {
  const { cookies, headers } = await import("next/headers");
  const headerList = await headers();
  const cookieJar = await cookies();
  const token = await getToken({
    req: {
      headers: Object.fromEntries(headerList),
      cookies: Object.fromEntries(cookieJar.getAll().map((c) => [c.name, c.value])),
    } as unknown as Parameters<typeof getToken>[0]["req"],
    secret: process.env.NEXTAUTH_SECRET,
    cookieName: sessionCookie().name,
  });
  const claims = token && typeof token.sid === "string" && typeof token.uid === "number" ? { sid: token.sid, uid: token.uid } : null;
  return {
    claims,
    clientAddress: clientAddressOf(headerList, readConfig().trustedProxyHops),
    userAgent: headerList.get("user-agent"),
    locale: ((cookie) => (isLocale(cookie) ? cookie : negotiateLocale(headerList.get("accept-language"))))(
      cookieJar.get(LOCALE_COOKIE)?.value,
    ),
  };
});

export async function currentRequest(): Promise<RequestContext> {
  return explicit.getStore() ?? fromNextRequest();
}

/** The database of the current request. */
export async function requestDatabase(): Promise<Database> {
  return explicit.getStore()?.db ?? getDatabase();
}
