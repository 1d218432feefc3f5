import { getFormat, getTranslations } from "@/lib/i18n/server";
import { type CauseCounts, FRED_KNOWN_BUGS, type FredKnownBug } from "@/lib/states/shadow";

const isBug = (name: string): name is FredKnownBug => Object.hasOwn(FRED_KNOWN_BUGS, name);

/** A cause in words: one of FRED's known bugs by name and description, FRED's procedure not yet run, or unexplained. */
export async function shadowCauseText(): Promise<(cause: string) => string> {
  const t = await getTranslations("shadow");
  return (cause) => {
    if (cause === "unexplained" || cause === "fred_not_yet_run") return t(`cause.${cause}`);
    const bug = cause.startsWith("fred_bug:") ? cause.slice("fred_bug:".length) : null;
    if (bug !== null && isBug(bug)) return t("cause.fredBug", { name: bug, description: t(`bugs.${bug}`) });
    return t("cause.other", { cause });
  };
}

/** Differences counted by cause, unexplained ones marked. */
export async function ShadowCauseCounts({ causes }: { causes: CauseCounts }) {
  const t = await getTranslations("shadow");
  const fmt = await getFormat();
  const causeText = await shadowCauseText();
  if (causes.length === 0) return <span className="muted">{t("runs.noDifference")}</span>;
  return (
    <ul className="shadow-causes">
      {causes.map(([cause, n]) => (
        <li key={cause} className={cause === "unexplained" ? "result-error" : undefined}>
          {t("cause.count", { count: fmt.number(n), cause: causeText(cause) })}
        </li>
      ))}
    </ul>
  );
}
