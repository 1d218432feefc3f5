"use client";

import { PageError } from "@/components/page-error";

export default function ObjectsError(props: { error: Error & { digest?: string }; reset: () => void }) {
  return <PageError {...props} texts="objects.error" home="/objects" />;
}
