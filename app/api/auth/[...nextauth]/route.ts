import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";

// next-auth's own endpoints: sign-in (CSRF-protected), sign-out, session and provider callbacks.
async function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  return NextAuth(request as never, context as never, authOptions());
}

export { handler as GET, handler as POST };
