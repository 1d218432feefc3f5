import { answerHeaders, answerText, answerTo } from "@/lib/actions/answer";
import { registryZone } from "@/lib/format/datetime";
import { wallTime } from "@/lib/format/instant";
import { exportObjects } from "@/lib/objects/export";

/**
 * GET /objects/export?<the list's filters>: the whole filtered result as a streamed CSV file (in
 * English, as the registry names things); a refusal's text in the request's language.
 */
export async function GET(request: Request): Promise<Response> {
  const params: Record<string, string[]> = {};
  for (const [key, value] of new URL(request.url).searchParams) params[key] = [...(params[key] ?? []), value];
  let result: Awaited<ReturnType<typeof exportObjects>>;
  try {
    result = await exportObjects(params);
  } catch (error) {
    const answer = answerTo(error);
    return new Response(await answerText(answer), { status: answer.status, headers: answerHeaders(answer) });
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
  // The registry's wall time (as every time on its pages), e.g. objects-20261124-1630.csv.
  const stamp = wallTime(Date.now(), registryZone()).slice(0, 16).replace(/[-:]/g, "").replace("T", "-");
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="objects-${stamp}.csv"`,
      "X-Total-Count": String(result.total),
      // "true": more than X-Total-Count match (the count stopped there); the file has them all.
      "X-Total-At-Least": String(result.atLeast),
      "Cache-Control": "no-store",
    },
  });
}
