import { AccessError } from "@/lib/auth/guard";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "@/lib/db/errors";
import { exportObjects } from "@/lib/objects/list";

/** GET /objects/export?<the list's filters>: the whole filtered result as a streamed CSV file. */
export async function GET(request: Request): Promise<Response> {
  const params: Record<string, string[]> = {};
  for (const [key, value] of new URL(request.url).searchParams) params[key] = [...(params[key] ?? []), value];
  let result: Awaited<ReturnType<typeof exportObjects>>;
  try {
    result = await exportObjects(params);
  } catch (error) {
    if (error instanceof AccessError) return new Response(error.message, { status: error.status });
    if (isDatabaseUnavailable(error)) {
      console.error(error);
      return new Response(DATABASE_UNAVAILABLE, { status: 503, headers: { "Retry-After": "5" } });
    }
    throw error;
  }
  const { chunks } = result;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-");
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="objects-${stamp}.csv"`,
      "X-Total-Count": String(result.total),
      "X-Total-Estimated": String(result.estimated),
      "Cache-Control": "no-store",
    },
  });
}
