"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** An unknown id or name: say so, and offer to search the list for it. */
export function ObjectNotFound() {
  const path = usePathname() ?? "";
  const asked = decodeURIComponent(path.split("/").pop() ?? "").slice(0, 255);
  return (
    <div className="not-found">
      <h1>No object “{asked.slice(0, 60)}”</h1>
      <p>There is no live registry object with this {path.includes("/by-name/") ? "name" : "id"}.</p>
      <p>
        <Link href={`/objects?q=${encodeURIComponent(asked)}&jump=no&deleted=include`}>
          Search the object list for “{asked.slice(0, 60)}”
        </Link>
        , deleted objects included.
      </p>
    </div>
  );
}
