import type { Catalog } from "../catalog";
import type { dashboard as en } from "../en/dashboard";

export const dashboard: Catalog<typeof en> = {
  title: "Přehled",
  counting: "Počty se počítají poprvé od spuštění konzole (u velkého registru několik sekund): <refresh>zobrazit je</refresh> za chvíli.",
  intro:
    "Nesmazané objekty; časy v zóně {zone}. Každé číslo odkazuje na seznam právě těch objektů, které počítá. Počty k <time>{asOf}</time> (znovu se spočítají za {minutes, plural, one {minutu} few {# minuty} other {# minut}}) · <refresh>přepočítat hned</refresh>",
  byState: {
    title: "Objekty podle aktuálního stavu",
    chart: "Nesmazané objekty podle aktuálního stavu",
    bar: "{state}: {count, plural, one {# objekt} few {# objekty} other {# objektů}} – {description}",
  },
  perDay: {
    title: "Získané a ztracené stavy po dnech za posledních 30 dní",
    legend: "Objekty, které ten den získaly (<entered>■</entered>) nebo ztratily (<left>■</left>) alespoň jeden stav.",
    chart: "Objekty, které získaly nebo ztratily stav, po dnech",
    point:
      "{day}: {change, select, entered {{count, plural, one {# objekt získal} few {# objekty získaly} other {# objektů získalo}}} other {{count, plural, one {# objekt ztratil} few {# objekty ztratily} other {# objektů ztratilo}}}} alespoň jeden stav",
  },
  upcoming: {
    title: "Nadcházející",
    forecast:
      "Stavy, do kterých objekty vstoupí, po dnech: předpověď z pravidel stavů a naplánovaných požadavků, jak byly v {asOf} (znovu každých {minutes, number} minut).",
    fredProcedure:
      "Stavy tohoto registru zapisuje FRED: stavy dané daty zaznamená procedura FREDu při svém příštím běhu, ruční stavy začínají a končí včas.",
    nothing: "nic se neočekává",
    entry: "{state} {count}",
    entryTitle:
      "{count, plural, one {# objekt vstoupí} few {# objekty vstoupí} other {# objektů vstoupí}} do stavu {state} dne {day} (předpověď)",
    requests:
      "{count, plural, one {# požadavek začíná nebo končí} few {# požadavky začínají nebo končí} other {# požadavků začíná nebo končí}} v příštích 7 dnech",
  },
  engine: {
    title: "Výpočet stavů",
    lastRun:
      "Poslední běh {at} ({kind, select, full {úplný} incremental {přírůstkový} object {jednoho objektu} busy {probíhal jiný běh} behind {nebylo co počítat} other {{kind}}}); historie je přesná do {cursor}{lag}.",
    lag: ", tj. před {ago}",
    seconds: "{n} s",
    minutes: "{n} min",
    notRun: "Výpočet stavů ještě neběžel.",
    mode: "{mode, select, beside {Vedle FREDu: historii stavů zapisuje FREDova vlastní procedura a jeho triggery; konzole do FREDových tabulek přidává jen své indexy.} shadow {Ve stínu: historii stavů zapisuje FREDova vlastní procedura a jeho triggery; výpočet konzole se s nimi porovnává.} charge {Ve vedení: historii stavů zapisuje místo FREDu výpočet konzole.} other {Historii stavů zapisuje výpočet konzole.}} Od {since}.",
    shadowReport: "Zpráva stínového provozu: stavový stroj konzole porovnaný s FREDem",
    waiting: "{count, plural, one {# objekt čeká} few {# objekty čekají} other {# objektů čeká}} na příští běh.",
  },
  recent: {
    title: "Nedávné akce",
    adminsOnly: "Auditní záznam je jen pro správce.",
    entry: "{at} · {actor} · {action} · {result, select, ok {v pořádku} refused {odmítnuto} error {chyba} other {{result}}}",
    all: "Celý auditní záznam",
  },
  attention: {
    title: "Případy a blokace k pozornosti",
    waiting:
      "{count, plural, =0 {Na schválení nic nečeká} one {Na schválení čeká # změna} few {Na schválení čekají # změny} other {Na schválení čeká # změn}}",
    due: "Případy ke kontrole (do týdne)",
    noneDue: "Žádný případ není ke kontrole.",
    case: "Případ {id}: {reference}",
    reviewBy: "zkontrolovat do {day} ({owner})",
    ending: "Blokace končící do týdne",
    noneEnding: "Žádná blokace do týdne nekončí.",
    ends: "končí {at}",
    inCase: "případ {id}",
  },
};
