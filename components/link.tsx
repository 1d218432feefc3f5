import NextLink from "next/link";
import type { ComponentProps } from "react";

/**
 * The console's link: next/link without prefetching. Its pages are dynamic, and a prefetch renders
 * the linked page on the server and reads the database for a person who may never open it. With
 * next/link's default every page view rendered the pages of the menu in the background: in one
 * end-to-end run the server answered 13,516 requests, about 7,000 of them menu pages nobody opened,
 * in 479 s of its 918. `e2e/prefetch.spec.ts` fails on a prefetch; `lib/imports.test.ts` on another
 * import of next/link.
 */
export function Link(props: Omit<ComponentProps<typeof NextLink>, "prefetch">) {
  return <NextLink {...props} prefetch={false} />;
}
