/** Stránka stínového provozu (app/shadow): stavový stroj konzole porovnaný se stavy zapsanými stavovým strojem FREDu (issue 40). */
export const shadow = {
  title: "Zpráva stínového provozu",
  intro:
    "Kde se stavový stroj konzole a stavy zapsané stavovým strojem FREDu v živém registru neshodují, po bězích a po dnech, každý rozdíl vysvětlený. Stejná zpráva jako <code>npm run db:shadow</code>.",
  mode: {
    shadow:
      "Ve stínovém provozu od {since}: stavy zapisuje stavový stroj FREDu a plánovač konzole s nimi porovnává svá pravidla {interval, plural, =0 {jen na požádání (SHADOW_INTERVAL_MINUTES=0)} other {každých # min}}; <code>npm run db:shadow</code> porovná hned.",
    notShadow:
      "Tento registr není ve stínovém provozu: je {mode, select, beside {vedle FREDu (stavy zapisuje stavový stroj FREDu, nic se neporovnává)} charge {ve správě konzole (stavy zapisuje stavový stroj konzole místo FREDu)} other {v režimu {mode}}}, od {since}. Žádné porovnání neběží. K porovnávání jej vlastník převede příkazem <code>npm run db:adopt -- --mode shadow</code> (nejprve s <code>--dry-run</code>, aby viděl, co převod udělá).",
    pastRuns: "Níže jsou běhy z doby, kdy byl ve stínovém provozu.",
    created:
      "Tento registr vytvořila konzole: její stavový stroj jej spravuje vždy. Stínový provoz je pro registr FREDu, který konzole převzala; zde není co porovnávat.",
  },
  verdict: {
    ready: "Připraven k předání",
    notReady: "Není připraven k předání",
    reason: {
      no_runs: "Zatím neproběhl žádný běh.",
      unexplained: "Nejnovější běh ({at}) má nevysvětlené rozdíly.",
      gap: "Mezi {from} a {to} neproběhl žádný běh: víc než den bez porovnání.",
      short: "Dní běhů bez nevysvětleného rozdílu: {days} (od {since}); potřeba {needed}.",
      ready: "Dní běhů bez nevysvětleného rozdílu: {days} (od {since}); potřeba {needed}.",
    },
    rule: "Připraven: běhy od posledního s nevysvětleným rozdílem pokrývají aspoň {needed, plural, one {# den} few {# dny} other {# dní}} a mezi dvěma běhy není víc než den. Pak <code>npm run db:adopt -- --mode charge</code> předá registr stavovému stroji konzole; jeho zkušební běh tuto zprávu cituje.",
  },
  days: {
    title: "Po dnech",
    caption: "Dny kalendáře registru, od nejnovějšího (posledních {count, plural, one {# den} few {# dny} other {# dní}} s běhy).",
    empty: "Zatím žádné běhy.",
    columns: {
      day: "Den",
      runs: "Běhy",
      differences: "Rozdíly",
      causes: "Podle příčiny",
      unexplained: "Nevysvětlené",
    },
  },
  runs: {
    title: "Poslední běhy",
    caption: "{shown, plural, one {Nejnovější běh} few {Nejnovější # běhy} other {Nejnovějších # běhů}} z {total}.",
    empty: "Zatím žádné běhy.",
    columns: {
      run: "Běh",
      at: "Porovnáno k",
      duration: "Trvání",
      objects: "Porovnané objekty",
      differences: "Rozdíly",
      causes: "Podle příčiny",
      unexplained: "Nevysvětlené",
    },
    duration: "{seconds} s",
    durationUnknown: "nezaznamenáno",
    show: "Běh {id}",
    shown: "Běh {id} (zobrazen níže)",
    noDifference: "žádný rozdíl",
  },
  differences: {
    title: "Rozdíly běhu {id}",
    summary:
      "Porovnáno k {at}: {objects, plural, one {# objekt} few {# objekty} other {# objektů}}; poslední pravidelný běh FREDu tehdy: {fredLastRun}.",
    fredNeverRan: "nezaznamenán",
    filter: "Zobrazit",
    all: "vše ({count})",
    total:
      "{total, plural, =0 {Žádný rozdíl.} one {# rozdíl; zobrazen.} few {# rozdíly; zobrazeny {from}–{to}.} other {# rozdílů; zobrazeny {from}–{to}.}}",
    columns: {
      object: "Objekt",
      state: "Stav",
      instant: "Okamžik",
      console: "Stavový stroj konzole",
      fred: "FRED zapsal",
      cause: "Příčina",
    },
    consoleHas: "má jej (od tohoto okamžiku)",
    consoleEnded: "nemá jej (skončil v tomto okamžiku)",
    consoleNever: "nemá jej",
    fredHas: "má jej platný",
    fredHasNot: "nemá jej",
    unknownObject: "objekt {id} (už v registru není)",
    previous: "Předchozí",
    next: "Další",
    pages: "Stránky rozdílů",
  },
  cause: {
    unexplained: "Nevysvětlený",
    fred_not_yet_run: "Procedura FREDu od tohoto okamžiku ještě neběžela",
    fredBug: "Známá chyba FREDu {name}: {description}",
    other: "{cause}",
    count: "{count} × {cause}",
  },
  bugs: {
    request_wrong_state: "požadavek na automatický stav nebo stav jiného typu objektu (FRED jej použije)",
    request_canceled_later: "požadavek zrušený k budoucímu okamžiku (FRED jej zahodí hned)",
    request_ends_at_run: "požadavek končící přesně v okamžiku běhu (FRED počítá valid_to jako platné)",
    late_evening_utc: "datum pozdě večer UTC (FRED bere uložené datum v UTC)",
    session_current_date: "CURRENT_DATE FREDu: datum sezení, ne registru",
  },
} as const;
