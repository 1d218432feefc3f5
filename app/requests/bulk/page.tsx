import type { Metadata } from "next";
import { BulkForm } from "@/components/requests/bulk-form";
import { authorize } from "@/lib/auth/guard";
import { forPage } from "@/lib/auth/page";
import { readConfig } from "@/lib/config";
import { getTranslations } from "@/lib/i18n/server";
import { DEFAULT_PROHIBITIONS, isProhibition } from "@/lib/requests/blocks";
import { BULK_MAX } from "@/lib/requests/bulk";
import { bulkAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("requests");
  return { title: t("bulk.title") };
}

export default async function BulkPage(props: PageProps<"/requests/bulk">) {
  const { filter } = await props.searchParams;
  const { db } = await forPage(() => authorize("requests.write", "bulk.page"));
  const [types, states] = await Promise.all([
    db.sql.query<{ name: string }>("SELECT name FROM enum_object_type ORDER BY id"),
    db.sql.query<{ name: string }>("SELECT name FROM enum_object_states WHERE manual ORDER BY importance DESC NULLS LAST, id"),
  ]);
  const names = states.map((s) => s.name);
  const t = await getTranslations("requests");
  return (
    <>
      <div className="page-head">
        <h1>{t("bulk.title")}</h1>
        <p className="muted">{t("bulk.intro")}</p>
      </div>
      <BulkForm
        action={bulkAction}
        types={types.map((type) => type.name)}
        states={names}
        prohibitions={names.filter((n) => isProhibition(n)).map((name) => ({ name, checked: DEFAULT_PROHIBITIONS.includes(name) }))}
        timeZone={readConfig().registryTimeZone}
        max={BULK_MAX}
        filter={typeof filter === "string" ? filter.slice(0, 4000) : ""}
      />
    </>
  );
}
