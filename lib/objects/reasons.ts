import { formatInstant } from "../format/datetime";
import { formatDay, formatNumber } from "../format/instant";
import type { Locale } from "../i18n/config";
import { translator } from "../i18n/server";

/**
 * One row of the SQL function console.state_reasons (migrations 20261124030000_console_pages and
 * 20261124050000_fred_domain_states): which rule or request explains a state, and the object's
 * dates and counts it uses. The rules live in SQL; only their wording is here and in the `reasons`
 * catalogues.
 */
export interface ReasonCode {
  code: string;
  args: Record<string, unknown>;
}

const LINK_KINDS = ["registrant", "domainContact", "nssetContact", "keysetContact", "nssetOf", "keysetOf"] as const;

/**
 * The reason in `locale`'s words, or null for a code this console does not know (a database newer
 * than the console). Calendar dates are written as the language writes them (English keeps ISO
 * YYYY-MM-DD), instants as wall times in the registry's zone, which the message names once.
 */
export function reasonText({ code, args }: ReasonCode, locale: Locale): string | null {
  const t = translator(locale, "reasons");
  const text = (key: string) => {
    const value = args[key];
    return value === null || value === undefined ? "" : String(value);
  };
  const number = (key: string) => Number(args[key]);
  const zone = text("zone");
  const date = (key: string) => formatDay(text(key), locale);
  const instant = (key: string) => wallTime(text(key), locale, zone);
  const recorded = args.reason !== null && args.reason !== undefined && args.reason !== "";

  switch (code) {
    case "requested":
      return args.to === null || args.to === undefined
        ? t("requested.onwards", {
            from: instant("from"),
            zone,
            request: text("request"),
            recorded: recorded ? "yes" : "no",
            reason: text("reason"),
          })
        : t("requested.until", {
            from: instant("from"),
            to: instant("to"),
            zone,
            request: text("request"),
            recorded: recorded ? "yes" : "no",
            reason: text("reason"),
          });
    case "requestStarts":
    case "requestEnds":
      // A request starting or ending at the instant of a change ahead (console.state_change_causes).
      // Said beside the instant it explains: the instant is not repeated.
      return t(code === "requestStarts" ? "requestStarts" : "requestEnds", {
        state: text("state"),
        own: args.own === true ? "yes" : "no",
        request: text("request"),
        recorded: recorded ? "yes" : "no",
        reason: text("reason"),
      });
    case "expirationWarning":
      return t("expirationWarning", { exdate: date("exdate"), days: number("days"), warningFrom: date("warningFrom") });
    case "expired":
      return t("expired", { exdate: date("exdate"), today: date("today") });
    case "unguarded":
      return t("unguarded", { days: number("days"), at: instant("at"), zone, exdate: date("exdate") });
    case "validationWarning":
      return t("validationWarning", { validationDate: date("validationDate"), days: number("days") });
    case "notValidated":
      return t("notValidated", { at: instant("at"), zone, validationDate: date("validationDate") });
    case "nssetMissing":
      return t("nssetMissing");
    case "outzone": {
      // Every cause that holds, each with when it began: the period's start is the earliest.
      const causes = (Array.isArray(args.causes) ? args.causes : []).map(String);
      const said = causes.map((cause) => {
        if (cause === "noNsset") return t("outzone.noNsset");
        if (cause === "manual") return t("outzone.manual", { from: instant("manualFrom"), zone });
        if (cause === "unguarded") return t("outzone.unguarded", { at: instant("unguardedAt"), zone, exdate: date("exdate") });
        if (cause === "notValidated")
          return t("outzone.notValidated", { at: instant("notValidatedAt"), zone, validationDate: date("validationDate") });
        return null;
      });
      if (said.length === 0 || said.includes(null)) return null;
      return t("outzone.causes", { causes: said.join(t("outzone.and")) });
    }
    case "deleteCandidateDomain":
      return t("deleteCandidate.domain", { exdate: date("exdate"), days: number("days"), at: instant("at"), zone });
    case "deleteCandidateUnlinked":
      return t("deleteCandidate.unlinked", {
        since: instant("since"),
        zone,
        neverLinked: args.neverLinked === true ? "yes" : "no",
        months: number("months"),
      });
    case "deleteWarning":
      return t("deleteWarning", { exdate: date("exdate"), days: number("days"), from: date("letterDate") });
    case "outzoneUnguardedState":
      return t("outzoneUnguardedState", { exdate: date("exdate"), days: number("days"), at: instant("at"), zone });
    case "outzoneUnguardedWarning":
      return t("outzoneUnguardedWarning", {
        exdate: date("exdate"),
        days: number("days"),
        from: date("mailDate"),
        outzoneAt: instant("at"),
        zone,
      });
    case "linked": {
      const parts = LINK_KINDS.filter((kind) => number(kind) > 0).map((kind) =>
        // English writes the count as the registry always has (no digit grouping); others their way.
        t(`linked.${kind}`, { n: number(kind), count: locale === "en" ? String(number(kind)) : formatNumber(number(kind), locale) }),
      );
      return t("linked.references", { references: parts.join(", ") });
    }
    default:
      // A rule of a newer database than this console knows: say so rather than nothing.
      return t("unknown", { code });
  }
}

/**
 * An instant as the language writes it, in `zone`, without the zone's abbreviation (the message
 * names the zone): English "2026-08-31 14:00", Czech "31. 8. 2026 14:00".
 */
function wallTime(value: string, locale: Locale, zone: string): string {
  if (!value || Number.isNaN(Date.parse(value))) return value;
  let formatted: string;
  try {
    formatted = formatInstant(value, locale, zone || undefined);
  } catch {
    // A zone PostgreSQL knows and Intl does not: the instant in UTC, as ISO writes it.
    return new Date(value).toISOString().slice(0, 16).replace("T", " ");
  }
  // formatInstant ends with the zone's abbreviation: keep what comes before it (up to HH:MM).
  return /^(.*\d{2}:\d{2})\s/.exec(formatted)?.[1] ?? formatted;
}
