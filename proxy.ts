import { type NextRequest, NextResponse } from "next/server";
import { getToken } from "next-auth/jwt";

/**
 * Runs before every page and API request. It sends people without a session cookie to sign-in,
 * refuses cross-site writes, and sets the security headers (a per-request CSP nonce, no caching of
 * registry data). It is a convenience and a first line only: every read and write is authorised
 * again in the data-access layer, which is what actually decides.
 */

const PUBLIC_PATHS = [/^\/icon\.svg$/, /^\/login$/, /^\/api\/auth\//, /^\/api\/health$/, /^\/unavailable$/, /^\/api\/state-changes$/];
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** The largest body the console accepts (Next's own limit for server actions): a bulk list of 10,000 names is about 200 KB. */
const MAX_BODY_BYTES = 1024 * 1024;

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
  return response;
}

/** A browser's write coming from another site: refused before it reaches any action. */
function isCrossSiteWrite(request: NextRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  if (request.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (!origin) return false;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

async function auditCrossSite(request: NextRequest): Promise<void> {
  try {
    const [{ audit }, { getDatabase }] = await Promise.all([import("./lib/audit/log"), import("./lib/db/client")]);
    const db = await getDatabase();
    await audit(db.sql, {
      action: "request.cross_site",
      result: "refused",
      errorCode: "cross_site",
      actor: { username: "(unknown)", clientAddress: request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? null },
      input: { method: request.method, path: request.nextUrl.pathname, origin: request.headers.get("origin") },
    });
  } catch (error) {
    console.error(`cross-site request not audited: ${(error as Error).message}`);
  }
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const secure = request.nextUrl.protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  const csp = contentSecurityPolicy(nonce, secure);
  const path = request.nextUrl.pathname;

  // Oversized bodies are refused before anything reads them.
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_BODY_BYTES) {
    return withSecurityHeaders(
      NextResponse.json(
        { error: `The request is too large: ${length.toLocaleString("en")} bytes, at most ${MAX_BODY_BYTES.toLocaleString("en")}.` },
        { status: 413 },
      ),
      csp,
    );
  }

  if (isCrossSiteWrite(request)) {
    await auditCrossSite(request);
    return withSecurityHeaders(NextResponse.json({ error: "Cross-site requests are refused." }, { status: 403 }), csp);
  }

  if (!PUBLIC_PATHS.some((pattern) => pattern.test(path))) {
    const token = await getToken({ req: request, secret: process.env.NEXTAUTH_SECRET });
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
