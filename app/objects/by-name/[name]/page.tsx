import { notFound, redirect } from "next/navigation";
import { forPage } from "@/lib/auth/page";
import { percentDecoded } from "@/lib/input/values";
import { objectIdByName } from "@/lib/objects/detail";

/**
 * /objects/by-name/<fqdn or handle>?type=…: the live object with that name, or a 404 that offers a
 * search (or, for a segment that can be no name, says why: components/objects/object-not-found.tsx).
 */
export default async function ObjectByName(props: PageProps<"/objects/by-name/[name]">) {
  // null: broken %-encoding, which names no object (proxy.ts refuses such addresses before this).
  const name = percentDecoded((await props.params).name);
  const { type } = await props.searchParams;
  // Asked even for a segment that names nothing: access is decided first (an empty name is no object's).
  const id = await forPage(() => objectIdByName(name ?? "", typeof type === "string" && type ? type : null));
  if (id === null) notFound();
  redirect(`/objects/${id}`);
}
