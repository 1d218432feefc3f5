/**
 * Why a state holds, from the codes and arguments of the SQL function console.state_reasons
 * (migrations 20261124030000_console_pages and 20261124050000_fred_domain_states), rendered by
 * lib/objects/reasons.ts. {zone} is the registry's time zone (e.g. Europe/Prague); instants are wall
 * times in it; {count} is a count as written.
 */
export const reasons = {
  requested: {
    onwards: "requested for {from} onwards {zone} (request {request}){recorded, select, yes {: “{reason}”} other {, no reason recorded}}",
    until: "requested for {from} – {to} {zone} (request {request}){recorded, select, yes {: “{reason}”} other {, no reason recorded}}",
  },
  /** A request that starts or ends at the instant of a change ahead (the object list's "when" columns). */
  requestStarts: "its {own, select, yes {} other {{state} }}request {request} starts{recorded, select, yes {: “{reason}”} other {}}",
  requestEnds: "its {own, select, yes {} other {{state} }}request {request} ends{recorded, select, yes {: “{reason}”} other {}}",
  expirationWarning: "expiration date {exdate} is {days, plural, one {# day} other {# days}} away or less (warning from {warningFrom})",
  expired: "expiration date {exdate} ≤ today ({today})",
  unguarded:
    "expired {days, plural, one {# day} other {# days}} ago or more: unguarded from {at} {zone} (expiration date {exdate} + {days, plural, one {# day} other {# days}})",
  validationWarning: "validation ends {validationDate}, {days, plural, one {# day} other {# days}} away or less",
  notValidated: "validation ended {at} {zone} (validation date {validationDate})",
  nssetMissing: "the domain has no nsset",
  outzone: {
    causes: "out of the zone: {causes}",
    and: "; and ",
    noNsset: "the domain has no nsset",
    manual: "serverOutzoneManual is requested from {from} {zone}",
    unguarded: "unguarded since {at} {zone} (expired {exdate}) and no serverInzoneManual",
    notValidated: "not validated since {at} {zone} (validation date {validationDate}) and no serverInzoneManual",
  },
  deleteCandidate: {
    domain:
      "to be deleted: expiration date {exdate} + {days, plural, one {# day} other {# days}}, from {at} {zone}, and neither serverDeleteProhibited nor serverRenewProhibited",
    unlinked:
      "to be deleted: not linked since {since} {zone}{neverLinked, select, yes { (never linked; created then)} other {}}, and {months, plural, one {# month} other {# months}} have passed; no serverDeleteProhibited",
  },
  deleteWarning:
    "expired {days, plural, one {# day} other {# days}} ago or more: the deletion warning letter is due from {from} (expiration date {exdate} + {days, plural, one {# day} other {# days}}), and no serverRenewProhibited",
  outzoneUnguardedState:
    "out of the zone because unguarded: from {at} {zone} (expiration date {exdate} + {days, plural, one {# day} other {# days}}), and neither serverRenewProhibited nor serverInzoneManual",
  outzoneUnguardedWarning:
    "the e-mail warning that the domain leaves the zone at {outzoneAt} {zone} is due from {from} (expiration date {exdate} + {days, plural, one {# day} other {# days}}), and neither serverRenewProhibited nor serverInzoneManual",
  linked: {
    /** {references}: the parts below that apply, joined by ", ". */
    references: "referenced by {references}",
    registrant: "{n, plural, one {{count} domain} other {{count} domains}} as registrant",
    domainContact: "{n, plural, one {{count} domain} other {{count} domains}} as admin or temporary contact",
    nssetContact: "{n, plural, one {{count} nsset} other {{count} nssets}} as technical contact",
    keysetContact: "{n, plural, one {{count} keyset} other {{count} keysets}} as technical contact",
    nssetOf: "{n, plural, one {{count} domain} other {{count} domains}} as their nsset",
    keysetOf: "{n, plural, one {{count} domain} other {{count} domains}} as their keyset",
  },
  unknown: "a rule this console version does not describe (reason code {code})",
} as const;
