import { notFound, redirect } from "next/navigation";
import { forPage } from "@/lib/auth/page";
import { objectIdByName } from "@/lib/objects/detail";

/** /objects/by-name/<fqdn or handle>?type=…: the live object with that name, or a 404 that offers a search. */
export default async function ObjectByName(props: PageProps<"/objects/by-name/[name]">) {
  const { name } = await props.params;
  const { type } = await props.searchParams;
  const id = await forPage(() => objectIdByName(decodeURIComponent(name), typeof type === "string" && type ? type : null));
  if (id === null) notFound();
  redirect(`/objects/${id}`);
}
