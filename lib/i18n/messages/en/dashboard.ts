export const dashboard = {
  title: "Overview",
  counting:
    "The counts are being taken for the first time since the console started (a large registry takes a few seconds): <refresh>show them</refresh> in a moment.",
  intro:
    "Live objects; times in {zone}. Every figure opens the list of exactly what it counts. Counts as of <time>{asOf}</time> (taken again after {minutes, plural, one {a minute} other {# minutes}}) · <refresh>count again now</refresh>",
  byState: {
    title: "Objects per state now",
    chart: "Live objects per current state",
    bar: "{state}: {count, plural, one {# object} other {# objects}} — {description}",
  },
  perDay: {
    title: "States entered and left per day, last 30 days",
    legend: "Objects that entered (<entered>■</entered>) or left (<left>■</left>) at least one state that day.",
    chart: "Objects entering and leaving states per day",
    point: "{day}: {count, plural, one {# object} other {# objects}} {change, select, entered {entered} other {left}} a state",
  },
  upcoming: {
    title: "Coming up",
    /** `asOf`: when the forecast was taken (every 10 minutes or more: it costs seconds on a large registry). */
    forecast:
      "States objects will enter, by day: a forecast from the state rules and the scheduled requests as they were at {asOf} (taken again every {minutes, number} minutes).",
    fredProcedure:
      "FRED's engine writes this registry's states: FRED's procedure records date-driven states at its next run, manual ones begin and end on time.",
    nothing: "nothing foreseen",
    entry: "{state} {count}",
    entryTitle: "{count, plural, one {# object enters} other {# objects enter}} {state} on {day} (forecast)",
    requests: "{count, plural, one {# request start or end in the next 7 days} other {# requests start or end in the next 7 days}}",
  },
  engine: {
    title: "State engine",
    lastRun:
      "Last run {at} ({kind, select, full {full} incremental {incremental} object {object} busy {busy} behind {behind} other {{kind}}}); history exact up to {cursor}{lag}.",
    lag: ", {ago} ago",
    seconds: "{n} s",
    minutes: "{n} min",
    notRun: "The state engine has not run yet.",
    mode: "{mode, select, beside {Beside FRED: FRED's own procedure and triggers write the state history; the console adds nothing to FRED's tables but its indexes.} shadow {In shadow: FRED's own procedure and triggers write the state history; the console's engine is being compared with them.} charge {In charge: the console's engine writes the state history in FRED's place.} other {The console's engine writes the state history.}} Since {since}.",
    shadowReport: "Shadow's report: the console's engine compared with FRED's",
    waiting: "{count, plural, one {# object waits for its next run.} other {# objects wait for their next run.}}",
  },
  recent: {
    title: "Recent actions",
    adminsOnly: "The audit log is for administrators.",
    entry: "{at} · {actor} · {action} · {result, select, ok {ok} refused {refused} error {error} other {{result}}}",
    all: "The whole audit log",
  },
  attention: {
    title: "Cases and blocks to look at",
    waiting: "{count, plural, =0 {No change waits for approval} one {# change waits for approval} other {# changes wait for approval}}",
    due: "Cases due for review (within a week)",
    noneDue: "No case is due for review.",
    case: "Case {id}: {reference}",
    reviewBy: "review by {day} ({owner})",
    ending: "Blocks ending within a week",
    noneEnding: "No block ends within a week.",
    ends: "ends {at}",
    inCase: "case {id}",
  },
} as const;
