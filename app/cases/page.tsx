import type { Metadata } from "next";
import { ActionForm } from "@/components/action-form";
import { Link } from "@/components/link";
import { SimpleTable } from "@/components/simple-table";
import { WallTimeInput } from "@/components/wall-time-input";
import { forPage } from "@/lib/auth/page";
import { caseKindChoices, listCases, registryToday } from "@/lib/cases/cases";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import { parseId } from "@/lib/input/values";
import { objectNameById } from "@/lib/objects/detail";
import { openCaseAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("cases");
  return { title: t("title") };
}

export default async function CasesPage(props: PageProps<"/cases">) {
  // Opened from an object's page (`for`: its id): the new case goes back to it, chosen for its forms.
  const forText = (await props.searchParams).for;
  const forId = typeof forText === "string" ? (parseId(forText) ?? null) : null;
  const [cases, kinds, forObject] = await forPage(() =>
    Promise.all([listCases(), caseKindChoices(), forId === null ? null : objectNameById(forId)]),
  );
  const [t, fmt] = await Promise.all([getTranslations("cases"), getFormat()]);
  const today = registryToday();
  return (
    <>
      <div className="page-head">
        <h1>{t("title")}</h1>
        <p className="muted">{t("intro")}</p>
      </div>
      <section className="panel" aria-labelledby="open-case">
        <h2 id="open-case">{t("open.title")}</h2>
        <ActionForm action={openCaseAction} className="case-form">
          <input type="hidden" name="idempotencyKey" value={crypto.randomUUID()} />
          {forObject !== null && (
            <>
              <input type="hidden" name="forObject" value={forId ?? ""} />
              <p className="muted wide">{t("choice.opening", { object: forObject })}</p>
            </>
          )}
          <label>
            {t("open.kind")}
            <select name="kind" required defaultValue="">
              <option value="" disabled>
                —
              </option>
              {kinds.map((k) => (
                <option key={k.code} value={k.code}>
                  {k.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("open.reference")}
            <input name="reference" required maxLength={60} />
          </label>
          <label>
            {t("open.requestedBy")}
            <input name="requestedBy" required maxLength={200} />
          </label>
          <label>
            {t("open.reviewBy")}
            <WallTimeInput name="reviewBy" withTime={false} />
          </label>
          <label className="wide">
            {t("open.description")}
            <textarea name="description" maxLength={4000} rows={3} />
          </label>
          <button type="submit">{t("open.submit")}</button>
        </ActionForm>
      </section>
      <SimpleTable
        rows={cases}
        rowKey={(c) => c.id}
        className="cases"
        empty={t("empty")}
        columns={[
          {
            header: t("columns.case"),
            cell: (c) => (
              <Link href={`/cases/${c.id}`}>
                {c.id}: {c.reference}
              </Link>
            ),
          },
          { header: t("columns.kind"), cell: (c) => c.kindName },
          { header: t("columns.requestedBy"), cell: (c) => c.requestedBy },
          {
            header: t("columns.reviewBy"),
            className: "nowrap",
            cell: (c) =>
              c.reviewBy ? (
                <>
                  {fmt.day(c.reviewBy)} {c.status === "open" && c.reviewBy <= today && <span className="badge-off">{t("due")}</span>}
                </>
              ) : (
                "—"
              ),
          },
          { header: t("columns.status"), cell: (c) => t(`status.${c.status}`) },
          { header: t("columns.objects"), cell: (c) => c.objects },
          { header: t("columns.pending"), cell: (c) => c.pending },
          { header: t("columns.owner"), cell: (c) => c.owner },
        ]}
      />
    </>
  );
}
