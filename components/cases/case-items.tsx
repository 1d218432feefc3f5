import { Link } from "@/components/link";
import { SimpleTable } from "@/components/simple-table";
import type { CaseItem } from "@/lib/cases/detail";
import { getFormat, getTranslations } from "@/lib/i18n/server";

/** What was made in a case: each block and request, its period, the object's states now, who made and who approved it. */
export async function CaseItems({ items }: { items: CaseItem[] }) {
  const [t, fmt] = await Promise.all([getTranslations("cases"), getFormat()]);
  return (
    <SimpleTable
      rows={items}
      rowKey={(i) => i.requestId}
      className="case-items"
      empty={t("detail.itemsEmpty")}
      columns={[
        {
          header: t("detail.columns.object"),
          cell: (i) => <Link href={`/objects/${i.objectId}`}>{i.object}</Link>,
        },
        {
          header: t("detail.columns.change"),
          cell: (i) =>
            i.kind === "block"
              ? t("detail.kind.block", { id: String(i.blockId) })
              : `${i.state} (${t("detail.kind.request", { id: String(i.requestId) })})`,
        },
        {
          header: t("detail.columns.period"),
          cell: (i) => (
            <>
              {t("detail.period", { from: fmt.instant(i.from), to: i.to ? fmt.instant(i.to) : t("detail.openEnd") })}
              {i.lifted && <span className="muted"> ({t("detail.lifted")})</span>}
            </>
          ),
        },
        { header: t("detail.columns.statesNow"), cell: (i) => i.statesNow.join(", ") },
        { header: t("detail.columns.by"), cell: (i) => t("detail.madeBy", { author: i.author, approvedBy: i.approvedBy ?? "none" }) },
      ]}
    />
  );
}
