import type { Catalog } from "../catalog";
import type { dashboard as en } from "../en/dashboard";

export const dashboard: Catalog<typeof en> = {
  title: "Přehled",
  intro:
    "Existující (nesmazané) objekty; časy v zóně {zone}. Každé číslo otevře seznam právě toho, co počítá. Počty k {asOf} (uchovávají se minutu) · <refresh>spočítat znovu teď</refresh>",
  byState: {
    title: "Objekty podle stavu teď",
    chart: "Existující objekty podle současného stavu",
    bar: "{state}: {count, plural, one {# objekt} few {# objekty} other {# objektů}} — {description}",
  },
  perDay: {
    title: "Stavy získané a ztracené po dnech, posledních 30 dní",
    legend: "Objekty, které ten den získaly (<entered>■</entered>) nebo ztratily (<left>■</left>) alespoň jeden stav.",
    chart: "Objekty, které získaly a ztratily stav, po dnech",
    point:
      "{day}: {change, select, entered {{count, plural, one {# objekt získal} few {# objekty získaly} other {# objektů získalo}}} other {{count, plural, one {# objekt ztratil} few {# objekty ztratily} other {# objektů ztratilo}}}} nějaký stav",
  },
  upcoming: {
    title: "Nadcházející",
    requests:
      "{count, plural, one {# požadavek začíná nebo končí} few {# požadavky začínají nebo končí} other {# požadavků začíná nebo končí}} v příštích 7 dnech",
  },
  engine: {
    title: "Výpočet stavů",
    lastRun:
      "Poslední běh {at} ({kind, select, full {úplný} incremental {přírůstkový} object {jednoho objektu} busy {výpočet byl obsazen} behind {nebylo co počítat} other {{kind}}}); historie je přesná do {cursor}{lag}.",
    lag: ", tj. před {ago}",
    seconds: "{n} s",
    minutes: "{n} min",
    notRun: "Výpočet stavů ještě neběžel.",
    waiting: "{count, plural, one {# objekt čeká} few {# objekty čekají} other {# objektů čeká}} na příští běh.",
  },
  recent: {
    title: "Nedávné akce",
    adminsOnly: "Auditní záznam je jen pro správce.",
    entry: "{at} · {actor} · {action} · {result, select, ok {v pořádku} refused {odmítnuto} error {chyba} other {{result}}}",
    all: "Celý auditní záznam",
  },
};
