import { answerHeaders, answerText, answerTo } from "@/lib/actions/answer";
import { caseRecordCsv } from "@/lib/cases/detail";
import { parseId } from "@/lib/input/values";

/** GET /cases/<id>/record.csv: the case's whole record as CSV (in English, instants in the registry's zone). */
export async function GET(_request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const id = parseId((await context.params).id) ?? Number.NaN;
  let csv: string | null;
  try {
    csv = Number.isNaN(id) ? null : await caseRecordCsv(id);
  } catch (error) {
    const answer = answerTo(error);
    return new Response(await answerText(answer), { status: answer.status, headers: answerHeaders(answer) });
  }
  if (csv === null)
    return new Response("There is no such case.\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="case-${id}-record.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
