import type { Metadata } from "next";
import { BulkForm } from "@/components/requests/bulk-form";
import { forPage } from "@/lib/auth/page";
import { readConfig } from "@/lib/config";
import { getTranslations } from "@/lib/i18n/server";
import { BULK_MAX, bulkChoices } from "@/lib/requests/bulk";
import { bulkAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("requests");
  return { title: t("bulk.title") };
}

export default async function BulkPage(props: PageProps<"/requests/bulk">) {
  const { filter } = await props.searchParams;
  const { types, states, prohibitions } = await forPage(bulkChoices);
  const t = await getTranslations("requests");
  return (
    <>
      <div className="page-head">
        <h1>{t("bulk.title")}</h1>
        <p className="muted">{t("bulk.intro")}</p>
      </div>
      <BulkForm
        action={bulkAction}
        types={types}
        states={states}
        prohibitions={prohibitions}
        timeZone={readConfig().registryTimeZone}
        max={BULK_MAX}
        filter={typeof filter === "string" ? filter.slice(0, 4000) : ""}
      />
    </>
  );
}
