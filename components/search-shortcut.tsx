"use client";

import { useEffect } from "react";

/**
 * "/" anywhere but in a field puts the cursor in the header's search (as on GitHub and in most
 * consoles); Escape there leaves it. The search field says so with aria-keyshortcuts.
 */
export function SearchShortcut() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target?.closest("input, textarea, select, [contenteditable='true']");
      const search = document.querySelector<HTMLInputElement>(".quick-search input[name='q']");
      if (!search) return;
      if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        search.focus();
        search.select();
      } else if (event.key === "Escape" && target === search) {
        search.blur();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return null;
}
