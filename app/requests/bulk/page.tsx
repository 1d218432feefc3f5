import type { Metadata } from "next";
import { Notices } from "@/components/notices";
import { BulkForm } from "@/components/requests/bulk-form";
import { render } from "@/lib/actions/message";
import { forPage } from "@/lib/auth/page";
import { openCaseChoices } from "@/lib/cases/cases";
import { readConfig } from "@/lib/config";
import { getLocale, getTranslations } from "@/lib/i18n/server";
import { BULK_MAX, bulkChoices, bulkFilterPreview, bulkSelection } from "@/lib/requests/bulk";
import { bulkAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("requests");
  return { title: t("bulk.title") };
}

export default async function BulkPage(props: PageProps<"/requests/bulk">) {
  const { filter: given, ids, case: caseParam } = await props.searchParams;
  const filter = typeof given === "string" ? given.slice(0, 4000) : "";
  // Rows chosen on the object list: their names fill the form.
  const chosen = !filter && typeof ids === "string" && ids ? await forPage(() => bulkSelection(ids.slice(0, 6000))) : null;
  const { types, states, prohibitions } = await forPage(bulkChoices);
  // The open cases the change may be made in (issue 42); a case's page links here with its own chosen.
  const cases = await forPage(openCaseChoices);
  const caseId = typeof caseParam === "string" ? (cases.find((c) => String(c.id) === caseParam)?.id ?? null) : null;
  // The filter's objects counted before any dry run (and its notices, as the list shows them).
  const preview = filter ? await forPage(() => bulkFilterPreview(filter)) : null;
  const locale = await getLocale();
  const t = await getTranslations("requests");
  return (
    <>
      <div className="page-head">
        <h1>{t("bulk.title")}</h1>
        <p className="muted">{t("bulk.intro")}</p>
      </div>
      {preview && <Notices notices={preview.notices.map((notice) => render(notice, locale))} />}
      <BulkForm
        action={bulkAction}
        types={types}
        states={states}
        prohibitions={prohibitions}
        timeZone={readConfig().registryTimeZone}
        max={BULK_MAX}
        filter={filter}
        preview={preview && { count: preview.count, more: preview.more, type: preview.type }}
        chosen={chosen}
        cases={cases}
        caseId={caseId}
      />
    </>
  );
}
