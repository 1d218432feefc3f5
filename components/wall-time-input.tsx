"use client";

import { useEffect, useRef, useState } from "react";
import { formatWallInput, parseWallInput, wallInputPattern } from "@/lib/format/wall-input";
import { useLocale, useTranslations } from "@/lib/i18n/client";
import type { Locale } from "@/lib/i18n/config";

interface WallTimeInputProps {
  /** The form field's name: it sends the ISO wall time ("2026-11-30T14:05", or a date alone), as a native field would. */
  name: string;
  /** A date and a time (the default), or a date alone. */
  withTime?: boolean;
  /** The first value (ISO) of an uncontrolled field. */
  defaultValue?: string;
  /** A controlled field: its value (ISO) and what to call when a whole one is typed. */
  value?: string;
  onValue?: (iso: string) => void;
  /** Told whether the text is only partly a date and time (the form should not be sent so). */
  onPartial?: (partial: boolean) => void;
  required?: boolean;
}

/**
 * A date (and time) field written as the console's language writes it, not as the browser's does:
 * a text field that reads both languages' forms and the ISO form, refuses a half-typed or
 * impossible value (the form cannot be sent with it), and sends the ISO wall time; a calendar
 * button opens the browser's own picker. Put it inside a label: the text field comes first.
 */
export function WallTimeInput({ name, withTime = true, defaultValue = "", value, onValue, onPartial, required }: WallTimeInputProps) {
  const t = useTranslations("common.dates");
  const locale = useLocale() as Locale;
  const controlled = value !== undefined;
  const [text, setText] = useState(() => formatWallInput(value ?? defaultValue, locale, withTime));
  const [iso, setIso] = useState(value ?? defaultValue);
  const field = useRef<HTMLInputElement>(null);
  const picker = useRef<HTMLInputElement>(null);

  // Another language: a whole value is written out as that language writes it.
  const [writtenIn, setWrittenIn] = useState(locale);
  if (writtenIn !== locale) {
    setWrittenIn(locale);
    const parsed = parseWallInput(text, withTime);
    if (parsed.ok) setText(formatWallInput(parsed.iso, locale, withTime));
  }

  // A controlled value set from outside (a quick choice such as "7 days") is written out anew.
  useEffect(() => {
    if (controlled && value !== iso) {
      setIso(value);
      setText(formatWallInput(value, locale, withTime));
      field.current?.setCustomValidity("");
    }
  }, [controlled, value, iso, locale, withTime]);

  const read = (typed: string) => {
    setText(typed);
    const parsed = parseWallInput(typed, withTime);
    const input = field.current;
    if (parsed.ok) {
      input?.setCustomValidity("");
      setIso(parsed.iso);
      onValue?.(parsed.iso);
      onPartial?.(false);
      return;
    }
    const pattern = wallInputPattern(locale, withTime);
    const example = formatWallInput(withTime ? "2026-11-30T14:05" : "2026-11-30", locale, withTime);
    input?.setCustomValidity(
      parsed.problem === "date"
        ? t("noSuchDay", { text: typed })
        : parsed.problem === "time"
          ? t("noSuchTime", { text: typed })
          : t("invalid", { withTime: withTime ? "yes" : "no", pattern, example }),
    );
    onPartial?.(true);
  };

  return (
    <span className="wall-time">
      <input
        ref={field}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={wallInputPattern(locale, withTime)}
        value={text}
        required={required}
        onChange={(e) => read(e.target.value)}
        onBlur={() => {
          // Written out as the language writes it, once it is whole.
          const parsed = parseWallInput(text, withTime);
          if (parsed.ok) setText(formatWallInput(parsed.iso, locale, withTime));
        }}
        size={withTime ? 17 : 11}
      />
      <input type="hidden" name={name} value={iso} />
      <button
        type="button"
        className="wall-time-pick"
        aria-label={t("pick")}
        title={t("pick")}
        onClick={() => {
          const proxy = picker.current;
          if (!proxy) return;
          proxy.value = iso;
          try {
            proxy.showPicker();
          } catch {
            proxy.focus();
          }
        }}
      >
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
          <rect x="1.5" y="3" width="13" height="11.5" rx="1.5" fill="none" stroke="currentColor" />
          <path d="M1.5 6.5h13M5 1.5v3M11 1.5v3" stroke="currentColor" fill="none" />
        </svg>
      </button>
      <input
        ref={picker}
        className="wall-time-proxy"
        type={withTime ? "datetime-local" : "date"}
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => {
          if (e.target.value) read(formatWallInput(e.target.value, locale, withTime));
        }}
      />
    </span>
  );
}
