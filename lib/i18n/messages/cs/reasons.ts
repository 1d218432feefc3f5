import type { Catalog } from "../catalog";
import type { reasons as en } from "../en/reasons";

export const reasons: Catalog<typeof en> = {
  requested: {
    onwards:
      "vyžádáno od {from} {zone} na dobu neurčitou (požadavek {request}){recorded, select, yes {: „{reason}“} other {, důvod nebyl uveden}}",
    until:
      "vyžádáno na období {from} – {to} {zone} (požadavek {request}){recorded, select, yes {: „{reason}“} other {, důvod nebyl uveden}}",
  },
  /** A request that starts or ends at the instant of a change ahead (the object list's "when" columns). */
  requestStarts:
    "začíná {own, select, yes {jeho požadavek {request}} other {požadavek {request} na {state}}}{recorded, select, yes {: „{reason}“} other {}}",
  requestEnds:
    "končí {own, select, yes {jeho požadavek {request}} other {požadavek {request} na {state}}}{recorded, select, yes {: „{reason}“} other {}}",
  expirationWarning:
    "do data expirace {exdate} {days, plural, one {zbývá nejvýše # den} few {zbývají nejvýše # dny} other {zbývá nejvýše # dní}} (varování od {warningFrom})",
  expired: "datum expirace {exdate} ≤ dnes ({today})",
  unguarded:
    "{days, plural, one {# den} few {# dny} other {# dní}} nebo více po expiraci: ochranná lhůta skončila {at} {zone} (datum expirace {exdate} + {days, plural, one {# den} few {# dny} other {# dní}})",
  validationWarning:
    "validace končí {validationDate}, {days, plural, one {zbývá nejvýše # den} few {zbývají nejvýše # dny} other {zbývá nejvýše # dní}}",
  notValidated: "validace skončila {at} {zone} (datum konce validace {validationDate})",
  nssetMissing: "doména nemá přiřazenou sadu jmenných serverů",
  outzone: {
    causes: "mimo zónu: {causes}",
    and: "; a ",
    noNsset: "doména nemá přiřazenou sadu jmenných serverů",
    manual: "je vyžádán serverOutzoneManual od {from} {zone}",
    unguarded: "po ochranné lhůtě od {at} {zone} (expirace {exdate}) a bez serverInzoneManual",
    notValidated: "není validována od {at} {zone} (konec validace {validationDate}) a bez serverInzoneManual",
  },
  deleteCandidate: {
    domain:
      "ke smazání: datum expirace {exdate} + {days, plural, one {# den} few {# dny} other {# dní}}, od {at} {zone}; není nastaven serverDeleteProhibited ani serverRenewProhibited",
    unlinked:
      "ke smazání: bez vazeb od {since} {zone}{neverLinked, select, yes { (nikdy nebyl navázán; tehdy vytvořen)} other {}} a {months, plural, one {uplynul # měsíc} few {uplynuly # měsíce} other {uplynulo # měsíců}}; není nastaven serverDeleteProhibited",
  },
  deleteWarning:
    "{days, plural, one {# den} few {# dny} other {# dní}} nebo více po expiraci: dopis s varováním před zrušením se posílá od {from} (datum expirace {exdate} + {days, plural, one {# den} few {# dny} other {# dní}}); není nastaven serverRenewProhibited",
  outzoneUnguardedState:
    "mimo zónu po ochranné lhůtě: od {at} {zone} (datum expirace {exdate} + {days, plural, one {# den} few {# dny} other {# dní}}); není nastaven serverRenewProhibited ani serverInzoneManual",
  outzoneUnguardedWarning:
    "e-mail s varováním, že doména {outzoneAt} {zone} opustí zónu, se posílá od {from} (datum expirace {exdate} + {days, plural, one {# den} few {# dny} other {# dní}}); není nastaven serverRenewProhibited ani serverInzoneManual",
  linked: {
    references: "odkazují na něj: {references}",
    registrant: "{n, plural, one {{count} doména} few {{count} domény} other {{count} domén}} (jako na držitele)",
    domainContact:
      "{n, plural, one {{count} doména} few {{count} domény} other {{count} domén}} (jako na administrativní nebo dočasný kontakt)",
    nssetContact:
      "{n, plural, one {{count} sada jmenných serverů} few {{count} sady jmenných serverů} other {{count} sad jmenných serverů}} (jako na technický kontakt)",
    keysetContact: "{n, plural, one {{count} sada klíčů} few {{count} sady klíčů} other {{count} sad klíčů}} (jako na technický kontakt)",
    nssetOf: "{n, plural, one {{count} doména} few {{count} domény} other {{count} domén}} (jako na svou sadu jmenných serverů)",
    keysetOf: "{n, plural, one {{count} doména} few {{count} domény} other {{count} domén}} (jako na svou sadu klíčů)",
  },
  unknown: "pravidlo, které tato verze konzole nepopisuje (kód důvodu {code})",
};
