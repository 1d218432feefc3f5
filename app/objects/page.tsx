import type { Metadata } from "next";
import { ObjectsTable } from "@/components/objects/objects-table";
import { Pager } from "@/components/pager";
import { forPage } from "@/lib/auth/page";
import { formatInstant } from "@/lib/format/datetime";
import { listObjects } from "@/lib/objects/list";

export const metadata: Metadata = { title: "Objects" };

export default async function ObjectsPage(props: PageProps<"/objects">) {
  const params = await props.searchParams;
  const list = await forPage(() => listObjects(params));
  const rows = list.rows.map((row) => ({ ...row, created: formatInstant(row.created) }));
  const hrefFor = (page: number) => {
    const query = new URLSearchParams();
    if (list.type) query.set("type", list.type);
    if (list.pageSize !== 50) query.set("size", String(list.pageSize));
    if (page > 1) query.set("page", String(page));
    const text = query.toString();
    return text ? `/objects?${text}` : "/objects";
  };
  return (
    <>
      <div className="page-head">
        <h1>Objects</h1>
        <p className="muted">
          {list.total.toLocaleString("en")} live {list.type ? `${list.type}s` : "objects"}
        </p>
      </div>
      {list.notices.length > 0 && (
        <div className="notice" role="status">
          {list.notices.map((notice) => (
            <p key={notice}>{notice}</p>
          ))}
        </div>
      )}
      <nav className="type-filter" aria-label="Object type">
        {[null, ...list.types].map((type) => (
          <a key={type ?? "all"} href={type ? `/objects?type=${type}` : "/objects"} aria-current={type === list.type ? "page" : undefined}>
            {type ?? "all"}
          </a>
        ))}
      </nav>
      <ObjectsTable rows={rows} />
      <Pager page={list.page} pageCount={list.pageCount} hrefFor={hrefFor} />
    </>
  );
}
