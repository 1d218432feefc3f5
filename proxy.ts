import { type NextRequest, NextResponse } from "next/server";
import { getToken } from "next-auth/jwt";
import { sessionCookie } from "./lib/auth/session-cookie";
import { readConfig } from "./lib/config";
import { clientAddressOf } from "./lib/http/client-address";
import { bodyRefusal } from "./lib/input/body";
import { percentDecoded } from "./lib/input/values";
import { logAnonymousRefusal } from "./lib/log";

/**
 * Runs before every page and API request. It refuses bodies that are too large or nest too deep
 * (lib/input/body.ts), sends people without a session cookie to sign-in, refuses cross-site
 * writes, and sets the security headers (a per-request CSP nonce, no caching of registry data,
 * HSTS behind an https NEXTAUTH_URL). It is a convenience and a first line only: every read and
 * write is authorized again in the data-access layer, which is what actually decides.
 */

// The feed and the metrics check their own tokens (lib/feed.ts, lib/metrics.ts): their clients have no session.
const PUBLIC_PATHS = [
  /^\/icon\.svg$/,
  /^\/login$/,
  /^\/api\/auth\//,
  /^\/api\/health$/,
  /^\/unavailable$/,
  /^\/api\/state-changes$/,
  /^\/api\/metrics$/,
];
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/**
 * How long a browser that reached the console over HTTPS keeps using only HTTPS for it (a year),
 * for the console's host and the hosts under it. includeSubDomains reaches only names below the
 * console's own (console.registry.example → *.console.registry.example), never the registry's
 * domain beside or above it.
 */
const HSTS = "max-age=31536000; includeSubDomains";

function contentSecurityPolicy(nonce: string, secure: boolean): string {
  const dev = process.env.NODE_ENV !== "production";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(secure ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

function withSecurityHeaders(response: NextResponse, csp: string): NextResponse {
  response.headers.set("Content-Security-Policy", csp);
  response.headers.set("Cache-Control", "no-store");
  if (readConfig().httpsOnly) response.headers.set("Strict-Transport-Security", HSTS);
  return response;
}

/**
 * A header a reverse proxy sets (X-Forwarded-Host, X-Forwarded-Proto): believed only when the
 * console is told it has proxies in front (TRUSTED_PROXY_HOPS > 0); the value the nearest proxy
 * gave, when several did.
 */
function forwarded(request: NextRequest, name: string): string | null {
  if (readConfig().trustedProxyHops === 0) return null;
  const value = request.headers.get(name)?.split(",").at(-1)?.trim();
  return value || null;
}

/** A browser's write coming from another site: refused before it reaches any action. */
function isCrossSiteWrite(request: NextRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  if (request.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (!origin) return false;
  const host = forwarded(request, "x-forwarded-host") ?? request.headers.get("host");
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/**
 * A refusal here is of someone the proxy does not know (it reads no session): logged, rate-limited,
 * never audited (see authorize in lib/auth/guard.ts).
 */
function logRefusal(kind: string, request: NextRequest, details: Record<string, unknown> = {}): void {
  logAnonymousRefusal(kind, {
    method: request.method,
    path: request.nextUrl.pathname,
    ...details,
    client: clientAddressOf(request.headers, readConfig().trustedProxyHops),
  });
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const secure = request.nextUrl.protocol === "https:" || forwarded(request, "x-forwarded-proto") === "https";
  const csp = contentSecurityPolicy(nonce, secure);
  const path = request.nextUrl.pathname;

  // An address whose %-encoding is broken names no page (Next itself would answer a bare 500).
  if (percentDecoded(path) === null) {
    const error = "The address is not valid %-encoded text; nothing was done.";
    logRefusal("request.malformed", request, { error });
    return withSecurityHeaders(NextResponse.json({ error }, { status: 400 }), csp);
  }

  // Bodies too large (announced or streamed) or nested too deep are refused before anything parses them.
  const refusal = await bodyRefusal(request);
  if (refusal) {
    logRefusal(refusal.status === 413 ? "request.too_large" : "request.malformed", request, { error: refusal.error });
    return withSecurityHeaders(NextResponse.json({ error: refusal.error }, { status: refusal.status }), csp);
  }

  if (isCrossSiteWrite(request)) {
    logRefusal("request.cross_site", request, { origin: request.headers.get("origin") });
    return withSecurityHeaders(NextResponse.json({ error: "Cross-site requests are refused." }, { status: 403 }), csp);
  }

  if (!PUBLIC_PATHS.some((pattern) => pattern.test(path))) {
    const token = await getToken({ req: request, secret: process.env.NEXTAUTH_SECRET, cookieName: sessionCookie().name });
    if (!token) {
      if (path.startsWith("/api/")) {
        return withSecurityHeaders(NextResponse.json({ error: "Sign in first." }, { status: 401 }), csp);
      }
      if (SAFE_METHODS.has(request.method)) {
        const login = new URL("/login", request.url);
        login.searchParams.set("callbackUrl", `${path}${request.nextUrl.search}`);
        return withSecurityHeaders(NextResponse.redirect(login), csp);
      }
    }
  }

  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("x-console-path", `${path}${request.nextUrl.search}`);
  headers.set("Content-Security-Policy", csp);
  return withSecurityHeaders(NextResponse.next({ request: { headers } }), csp);
}

export const config = {
  matcher: [{ source: "/((?!_next/static|_next/image|favicon.ico).*)" }],
};
