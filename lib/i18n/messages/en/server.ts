// What the data-access layer tells a person through a server action: refusals (InputError), their
// field errors and the messages of changes that were made. Rendered by lib/actions/message.ts;
// dates come preformatted, ids as strings. The English is what these messages said before they were
// translated, word for word (counts keep "1 names", "(s)"); plurals and selects that only pick the
// same English words are there so that the Czech has the same placeholders.
export const server = {
  input: {
    /** A check of the schema library's own (no message of ours), with its text in each language. */
    checked: "{text}",
    unknown:
      "{what, select, object {Unknown object.} request {Unknown request.} block {Unknown block.} user {Unknown user.} token {Unknown token.} securityKey {Unknown security key.} case {Unknown case.} change {Unknown pending change.} other {Unknown {what}.}}",
  },
  reason: {
    missing: "Give a reason.",
    tooLong: "Reasons have at most {max, plural, other {# characters}}.",
  },
  form: {
    keyDamaged: "The form's submission key is damaged; reload the page.",
    batchDamaged: "The form's batch key is damaged; reload the page.",
  },
  field: {
    unknownState: "Unknown state.",
    deleted: "Deleted.",
    automatic: "Automatic state.",
    notForType: "Not for this type.",
    blockOnly: "Use Block.",
    notInstant: "Not a date and time.",
    /** More than INSTANT_SPAN_YEARS from now (lib/input/values.ts). */
    tooFar: "More than {years, number} years from now.",
    inPast: "In the past.",
    beforeStart: "Before the start.",
    overlapsRequest: "Overlaps another request.",
    blocked: "Blocked.",
    nothingToChange: "Changes nothing.",
    partOfBlock: "Part of a block.",
    unknownProhibition: "Unknown prohibition.",
    overlapsBlockRequest: "Overlaps a request.",
    begun: "Already begun.",
    invalid: "Invalid.",
    tooMany: "Too many.",
    empty: "Empty.",
    usernameTaken: "This user name is taken.",
    taken: "Taken.",
  },
  request: {
    cancelSummary: "cancel request {id} ({state} on {object})",
    chooseState: "Choose a state.",
    noObject: "There is no object with id {id}.",
    objectDeleted: "{object} was deleted on {at}; deleted objects take no requests.",
    noState: "There is no state “{state}”.",
    automatic: "{state} is automatic: the state engine sets it from the registry's data; only manual states can be requested.",
    blockOnly:
      "{object} is blocked with the Block action (serverBlocked together with its prohibitions), not with a request for serverBlocked.",
    notForType:
      "{state} does not apply to a {type, select, domain {domain} contact {contact} nsset {nsset} keyset {keyset} other {{type}}}.",
    startNotInstant: "The start “{value}” is not a date and time.",
    startInPast: "The start {from} is in the past; requests start now or later.",
    endNotInstant: "The end “{value}” is not a date and time.",
    /** `years`: INSTANT_SPAN_YEARS; `latest`: the latest instant a request may name now. */
    startTooFar: "The start {from} is more than {years, number} years from now; requests start and end by {latest}.",
    endTooFar:
      "The end {to} is more than {years, number} years from now; requests end by {latest} (leave the end empty for a request with no end).",
    endInPast: "The end {to} is in the past.",
    endNotAfterStart: "The end {to} is not after the start {from}.",
    sameState: "{object} already has request {id} for {state} ({from} → {to}); two requests for one state may not overlap.",
    zoneClash: "{object} has request {id} for {state} ({from} → {to}); a domain cannot be kept in and out of the zone at the same time.",
    blocked:
      "{object} is administratively blocked (block {block}, {from} → {to}); its server* states change only through the block: change or lift the block instead.",
    overlapsNow: "{object} already has an overlapping request for {state}; reload and look.",
    overlapsSameMoment: "Another request for this state was made at the same moment and overlaps; reload and look.",
    summary: "{state} on {object} from {from} until {to}.",
    summaryOpen: "{state} on {object} from {from} with no end.",
    created: "Request {id}: {summary}",
    repeated: "This form was already sent: request {id} exists; nothing new was created.",
    noRequest: "There is no request {id}.",
    alreadyCanceled: "Request {id} was already canceled on {at}.",
    partOfBlock: "Request {id} is part of block {block}; lift the block to end it.",
    ended: "Request {id} ended on {at}; only requests that have not ended can be canceled.",
    canceledEnded: "Request {id} canceled: {state} on {object} ended now.",
    canceledFuture: "Request {id} canceled: {state} on {object} will not take effect.",
  },
  preview: {
    keepsUntil: "{object} keeps {state} only until {to}.",
    keepsOpen: "{object} keeps {state} with no end.",
    gets: "{object} gets {state} {start, select, now {now} other {on {from}}}{end, select, open {, with no end} other { until {to}}}{refused, select, none {} other {; EPP {refused} refused}}.",
    noLongerGets: "{object} no longer gets {state} on {from}.",
    nothing: "{state} would change nothing on {object}: the rules already give it the same states.",
  },
  block: {
    notProhibition: "{state} is not a prohibition a block can set.",
    startsInside: "Request {id} for {state} starts inside the block's period ({from}); cancel it first or choose another period.",
    summary:
      "{object} blocked from {start, select, now {now} other {{from}}} {end, select, open {with no end} other {until {to}}} (serverBlocked, {prohibitions}).",
    created: "Block {id}: {summary}",
    noBlock: "There is no block {id}.",
    notGiven: "Say which block: none was given.",
    noBlockRequest: "Request {id} is not the serverBlocked request of a block.",
    alreadyLifted: "Block {id} was already lifted on {at}.",
    endedNothingToLift: "Block {id} ended on {at}; there is nothing to lift.",
    lifted: "Block {id} lifted: {object} is no longer blocked{restored, plural, =0 {} other {; # earlier prohibition(s) restored}}.",
    liftedBlockAgain: "Block {id} was lifted on {at}; block the object again instead.",
    endedBlockAgain: "Block {id} ended on {at}; block the object again instead.",
    begun: "Block {id} began on {at}; its start cannot move.",
    nothingToChange:
      "Block {id} already has this period and these prohibitions: nothing to change. Change its end, start or prohibitions, or keep it as it is.",
    changed: "Block {id} changed: {change}",
    liftSummary: "lift block {id} of {object} (the prohibitions it cut come back)",
  },
  bulk: {
    proposedAll:
      "{count, plural, one {Proposed for # object} other {Proposed for all # objects}}: each waits for a second person's approval (batch {batch}).",
    willPropose: "Will be proposed for a second person's approval: {change}",
    listTooLong: "The list is too long.",
    filterTooLong: "The filter is too long.",
    chooseKind: "Choose a request or a block.",
    filterInvalid: "The list filter is not valid: {notices}",
    filterTooMany: "The list filter matches more than {max, number} objects; narrow it first.",
    empty: "Paste at least one name or handle, or start from a list filter that matches objects.",
    tooMany: "{count, plural, other {# names}}: one bulk change takes at most {max, number}.",
    alreadyApplied: "This batch was already applied ({count, plural, one {# request} other {# requests}}); nothing new was done.",
    noSuchObject:
      "There is no live {type, select, domain {domain} contact {contact} nsset {nsset} keyset {keyset} object {object} other {{type}}} named {name}.",
    ambiguous: "{name} names several objects ({types}); choose a type.",
    notMade: "not made, as the batch was refused: {change}",
    willApply: "will apply: {change}",
    applied: "{count, plural, one {Applied to # object} other {Applied to all # objects}} (batch {batch}).",
    dryRun: "Dry run: {ok, number} of {total, number} will apply{refused, plural, =0 {} other {, # refused}}; nothing was changed.",
    refused: "{refused, number} of {total, number} cannot be applied; nothing was changed. Fix or remove them and try again.",
    /** Two notices of a list filter one after the other (`rest` may hold more, the same way). */
    noticeList: "{first} {rest}",
  },
  secondFactor: {
    alreadyOn: "Two-step sign-in is on already. Turn it off first to set up another app (or an administrator resets it: a lost phone).",
    notOn: "Two-step sign-in with an app is not on.",
    removed: "Two-step sign-in with an app is off; its recovery codes are no longer valid.",
    recoveryRenewed:
      "New recovery codes, each good once, shown only now: {codes}. The old ones are no longer valid. Keep them where you keep passwords.",
    started: "Add the key to your authenticator app, then enter the code it shows.",
    codeMissing: "Enter the code your authenticator app shows.",
    codeForm: "The code is six digits.",
    notStarted: "Start setting up two-step sign-in first.",
    wrongCode: "That code is not the one your app shows now. Check the app's clock and try the current code.",
    enrolled: "Two-step sign-in is on. Your recovery codes, each good once, shown only now: {codes}. Keep them where you keep passwords.",
    noneToReset: "{username} has no two-step sign-in to reset.",
    reset: "Two-step sign-in of {username} reset: their sessions ended, and they may set it up again.",
  },
  securityKeys: {
    touch: "Touch your security key, or confirm on your device.",
    nameMissing: "Give the key a name (such as “blue YubiKey” or “laptop”), so that you know which one to remove if you lose it.",
    nameTooLong: "Names of keys have at most {max, plural, other {# characters}}.",
    noResponse: "The browser sent no answer from a security key. Try again and touch the key when it blinks.",
    notVerified:
      "The key's answer could not be verified: it is for another address of the console, or it took longer than five minutes. Try again.",
    alreadyAdded: "That key is registered already.",
    tooMany: "You have {max, plural, other {# keys}} already, the most a person may have. Remove one first.",
    added: "Security key “{name}” added: the console asks for it when you sign in.",
    removed: "Security key “{name}” removed.",
  },
  users: {
    enterUsername: "Enter a user name.",
    usernameForm: "User names have 2–64 characters: letters, digits and . _ @ - (starting with a letter or digit).",
    chooseRole: "Choose a role: {roles}.",
    enterPassword: "Enter a password.",
    passwordTooShort: "Passwords have at least {min, plural, other {# characters}}.",
    passwordTooLong: "Passwords have at most {max, plural, other {# characters}}.",
    nameTooLong: "Names have at most {max, plural, other {# characters}}.",
    noUser: "There is no user with id {id}.",
    directoryPassword:
      "{username} signs in with the directory's password (LDAP): a console password would never be asked for. Change it in the directory.",
    lastAdmin: "This is the last active admin; make another user admin first.",
    taken: "The user name {username} is taken.",
    created: "User {username} ({role}) was added.",
    roleSet: "{username} is now {role}; their sessions were ended.",
    notYourself: "You cannot disable your own account.",
    disabled: "{username} was disabled and signed out.",
    enabled: "{username} may sign in again.",
    signedOut: "Every session of {username} was ended.",
    passwordSet: "The password of {username} was changed; their sessions were ended.",
    allowLinkChoice: "Choose whether to allow linking: on or off.",
    linkAllowed:
      "The next single sign-on or directory sign-in as {username} in the next {days, plural, one {# day} other {# days}} links that identity to this account, which then signs in through it.",
    linkWithdrawn: "Linking {username} at the next single sign-on or directory sign-in is no longer allowed.",
    passwordCommon:
      "This password is on the list of common and breached passwords, or is a small change of one of them (a word with digits or symbols added, a keyboard row): attackers try those first. Choose another: several unrelated words make a strong password.",
    passwordPersonal:
      "This password is too easy to guess: it is built on the user name, the person's name or the console's name. Choose another: several unrelated words make a strong password.",
    passwordGuessable:
      "This password is too easy to guess: it is made of common words, names, dates, repeats, sequences or keyboard patterns. Choose a longer one: several unrelated words make a strong password.",
    enterCurrentPassword: "Enter your current password.",
    wrongCurrentPassword: "The current password is wrong; nothing was changed.",
    passwordsDiffer: "The two new passwords differ; type the same new password twice.",
    passwordUnchanged: "The new password is the same as the current one; choose a new one.",
    noOwnPassword: "Your account signs in through single sign-on and has no console password to change.",
    passwordThrottled: "Too many wrong passwords for your account from this address. Wait {wait}, then try again; nothing was changed.",
    passwordChangedMeanwhile:
      "Your password was changed in the meantime (in another session, or by an administrator); nothing was changed. Reload the page.",
    ownPasswordChanged:
      "Your password was changed. {count, plural, =0 {You had no other sessions.} one {Your other session was ended.} other {Your # other sessions were ended.}}",
    waitSeconds: "{count, plural, one {# second} other {# seconds}}",
    waitMinutes: "{count, plural, one {# minute} other {# minutes}}",
    directoryUnavailable:
      "The registry's directory (LDAP) cannot be reached, so your directory password cannot be checked; nothing was changed. Try again in a moment.",
    signInAgain:
      "Your account signs in through single sign-on, which has no password the console could ask. Sign out, sign in again, and do this within {minutes, plural, other {# minutes}}; nothing was changed.",
    emailForm: "That is not an e-mail address (name@domain).",
    emailSet: "Notices of changes to how you sign in go to {email}.",
    emailCleared: "No e-mail address: notices of changes are shown only when you sign in.",
    sessionUnknown: "That session is not one of yours, or it has ended already.",
    sessionEnded: "The session was ended: that browser has to sign in again.",
  },
  /** What was wrong with a page's URL, for every page that reads parameters (lib/input/params.ts, values.ts). */
  /** Changes to how a person signs in, shown at their next sign-in and mailed (lib/users/notices.ts). */
  notices: {
    heading: "Since you last signed in",
    line: "{when}: {what}",
    from: "From address {address}.",
    by: "By {username}.",
    kinds: {
      password_changed: "your password was changed.",
      password_set: "an administrator set a new password for you.",
      email_changed: "the e-mail address for these notices was changed.",
      second_factor_enrolled: "two-step sign-in with an authenticator app was turned on.",
      second_factor_removed: "two-step sign-in with an authenticator app was turned off.",
      second_factor_reset: "an administrator reset your two-step sign-in (app and security keys).",
      recovery_codes_renewed: "new recovery codes were made; the old ones are no longer valid.",
      security_key_added: "a security key was added.",
      security_key_removed: "a security key was removed.",
    },
    notYou: "Not you? Change your password and tell an administrator.",
    mailSubject: "Registry State Console: how you sign in was changed",
    mailText:
      "Hello {username},\n\n{line}\n\nIf this was not you, change your password at once (Your account) and tell an administrator, who can end every session of your account.\n\n— Registry State Console",
  },
  /** Mail where a person must act on a case (lib/cases/mail.ts), in the recipient's language. */
  caseMail: {
    line: "- #{id}{caseId, select, none {} other { (case {caseId})}}, proposed by {by}: {summary}",
    waitingSubject: "{count, plural, one {Change {id} waits} other {# changes wait}} for your approval",
    waitingText:
      "Hello {username},\n\n{count, plural, one {A change waits} other {These changes wait}} for a second person's approval in the Registry State Console:\n\n{lines}\n\nApprove or reject at {link}. Nothing reaches the registry before someone approves it; its proposer cannot.",
    approvalsPage: "the console's page Approvals (/approvals)",
    reviewSubject: "Case {id} ({reference}) is due for review by {day}",
    reviewText:
      "Hello {username},\n\nCase {id} ({reference}), which you own in the Registry State Console, is due for review by {day}.\nRecord the review on the case's page{link, select, none {} other { ({link})}}: what you found, and the next date.",
  },
  params: {
    /** `name`: the URL parameter. */
    nul: "“{name}” in the address holds a NUL character (%00), which no name, id or date has; it was left out.",
    /** A list's page position (cursor) that decodes, but names no row that can exist. `max`: the largest row id. */
    positionValue:
      "The page position in the link is damaged: {problem, select, date {“{value}” is not a real date and time} id {“{value}” is not a row id (a whole number from 1 to {max, number})} nul {it holds a NUL character} other {“{value}” is not a value of this column}}; showing the first page.",
  },
  /** What was wrong with the object list's URL (lib/objects/filter.ts, paging.ts, list.ts) and what was used instead. */
  filter: {
    unknownType: "Unknown object type “{type}”; showing all types.",
    nameTooLong: "The name filter is longer than {max, plural, other {# characters}}; it was left out.",
    nameMatch: "Name match “{match}” is not prefix or contains; using contains.",
    notRegistrarHandle: "“{registrar}” is not a registrar handle; it was left out.",
    noRegistrar: "There is no registrar “{registrar}”; the registrar filter was left out.",
    /** `label`: the filter's label (a message or the form's label in each language). */
    notInstant: "{label} “{text}” is not a date or time (use YYYY-MM-DD or YYYY-MM-DDTHH:MM); it was left out.",
    notDate: "{label} “{text}” is not a date (YYYY-MM-DD); it was left out.",
    /** `years`: INSTANT_SPAN_YEARS; the filters take instants from `earliest` to `latest`. */
    instantTooFar:
      "{label} “{text}” is more than {years, number} years from now (filters take instants from {earliest} to {latest}); it was left out.",
    /** Labels of the filters the form shows under another name. */
    label: {
      at: "The instant",
      from: "The range start",
      to: "The range end",
      requestFrom: "Request start from",
      requestTo: "Request start before",
    },
    deletedMode: "Deleted objects “{deleted}” is not include, only or exclude; deleted objects are left out.",
    unknownState: "Unknown state “{state}”; it was left out of the state filter.",
    stateMode: "State mode “{mode}” is not one of {modes}; using “now”.",
    stateMatch: "State match “{match}” is not all or any; using all.",
    /** `names`: the parameters, comma-separated. */
    withoutStates:
      "{count, plural, one {“{names}” belongs} other {“{names}” belong}} to the state filter, but no state was chosen; {count, plural, one {it was} other {they were}} left out.",
    withoutRequestState:
      "{count, plural, one {“{names}” belongs} other {“{names}” belong}} to the request filter, but no state was chosen for it; {count, plural, one {it was} other {they were}} left out.",
    withoutName: "“match” belongs to the name search, but no name was given; it was left out.",
    unknownParameter:
      "{count, plural, one {“{names}” is not a filter of this list; it was} other {“{names}” are not filters of this list; they were}} ignored.",
    /** `mode`: the mode's words as the filter form shows them. */
    needsInstant: "“{mode}” needs an instant; showing who has the states now.",
    forecast:
      "Past now ({now}) this list is a forecast: the states the rules and the scheduled requests will give if nothing else changes. A renewal, a new request or another change before then changes it.",
    rangeReversed: "The range ends before it starts; showing who has the states now.",
    needsRange: "“{mode}” needs a start and an end; showing who has the states now.",
    pending: "Scheduled request “{pending}” is not 1; it was left out.",
    sort: "Sort “{sort}” is not one of {keys} (prefix - for descending); sorted by name.",
    sortExpires: "Only domains expire: choose the domain type to sort by expiration; sorted by name.",
    sortWhen:
      "Sorting by {sort, select, from {when the state began} other {when the state ends}} needs a state filter by an instant or a window (“had at”, “had at any time in”, “entered in”, “left in”); sorted by name.",
    position: "The page position in the link is damaged or belongs to another sort order; showing the first page.",
    pageSize: "Page size “{size}” is not one of {sizes}; showing {pageSize, plural, other {#}} per page.",
    pageNumber: "Pages are reached with the First, Previous, Next and Last links; the page number in the link was not used.",
    noRowsBefore: "There are no rows before that point any more; showing the first page.",
    noRowsAfter: "There are no rows after that point; showing the last page.",
  },
  /** What was wrong with the request list's URL (lib/requests/read.ts). */
  requestList: {
    sort: "The order “{sort}” is not one of {sorts}; newest start first.",
    phase: "Phase “{phase}” is not one of {phases}; all phases are shown.",
    notManualState: "“{state}” is not a manual state; all states are shown.",
    notInstant: "“{value}” is not a date or time; the period filter was left out.",
    instantTooFar:
      "“{value}” is more than {years, number} years from now (filters take instants from {earliest} to {latest}); the period filter was left out.",
    notBatch: "“{batch}” is not a batch id; all batches are shown.",
    notRequestId: "“{id}” is not a request id (a whole number); all requests are shown.",
    position: "The page position in the link is damaged; showing the first page.",
  },
  /** What was wrong with the audit log's filters (lib/audit/query.ts). */
  audit: {
    noObject: "No object is named “{object}”; the object filter is ignored.",
    noObjectId:
      "“{object}” is not an object id (a whole number from 1 to {max, number}) and no object is named so; the object filter is ignored.",
    position: "The page position in the link is damaged (“{value}” is not an entry id); showing the newest entries.",
    notInstant:
      "“{value}” is not a date or date and time (YYYY-MM-DD or YYYY-MM-DDTHH:MM); the “{key, select, from {from} to {to} other {{key}}}” filter is ignored.",
    instantTooFar:
      "“{value}” is more than {years, number} years from now (filters take instants from {earliest} to {latest}); the “{key, select, from {from} to {to} other {{key}}}” filter is ignored.",
    /** An action no entry of the log has, nor a group of actions ("request" of request.create). */
    noAction: "No entry of the audit log has the action “{action}”; the action filter is ignored.",
  },
  /** What was wrong with an object page's URL (lib/objects/page-params.ts). */
  objectPage: {
    /** `names`: the parameters, comma-separated. */
    unknownParameter:
      "{count, plural, one {“{names}” is not a parameter of this page; it was} other {“{names}” are not parameters of this page; they were}} ignored.",
    /** `name`: history or requests; only “all” shows every row. */
    notAll: "“{name}={value}” is not a choice of this page ({name}=all shows every row); showing the newest rows.",
    /** `case`: the case chosen for the page's block and request forms. */
    caseNotId: "“case={value}” is not a case's number; no case is chosen.",
  },
  /** What was wrong with shadow's page's URL (lib/states/shadow-page.ts). */
  shadow: {
    notRunId: "“{value}” is not a run id (a whole number); showing the newest run.",
    noRun: "There is no run {id}; showing the newest run.",
    page: "“{value}” is not a page number (a whole number from 1 to {max, number}); showing the first page.",
    pageBeyond: "Page {page} is past the last page of this run's differences; showing the last page.",
    cause: "“{value}” is not a cause (unexplained, fred_not_yet_run, or fred_bug: with a known bug’s name); all differences are shown.",
    days: "“{value}” is not a number of days from 1 to 365; {days, number} days are needed.",
  },
  columns: {
    saved: "The table shows the columns you chose, on every browser you sign in on.",
    table: "Choose a table: objects or requests.",
    unknown: "The table has no column {columns} that can be hidden; {key} always shows, the others are {allowed}.",
  },
  language: {
    choose: "Choose English (en) or Czech (cs).",
  },
  tokens: {
    nameMissing: "Name the client.",
    nameTooLong: "Names have at most {max, plural, other {# characters}}.",
    nameTaken: "A client named “{name}” exists already; choose another name.",
    created: "Token for {name}: copy it now, it is not shown again.",
    noToken: "There is no token {id}.",
    alreadyRevoked: "The token of {name} was already revoked.",
    revoked: "The token of {name} is revoked.",
  },
  case: {
    ruleChooseState: "Choose a state, or any state.",
    ruleChooseKind: "Choose a kind of case, or any.",
    ownReject: "Change {id} is your own proposal: withdraw it instead of rejecting it.",
    batchNone: "Nothing of this batch waits for approval any more.",
    batchApproved:
      "{approved, plural, one {# change approved and applied} other {# changes approved and applied}}{refused, plural, =0 {} one {; # could not be applied (see the queue)} other {; # could not be applied (see the queue)}}.",
    endWaits: "Case {id} still has proposals waiting ({changes}): approve, reject or withdraw them before ending it.",
    endLiftsWait:
      "Case {id} cannot end yet: {count, plural, one {# lift waits} other {# lifts wait}} for approval. End it once they are approved.",
    endedNow:
      "Case {id} ended; {lifted, plural, =0 {nothing was left to lift} one {# block or request lifted} other {# blocks and requests lifted}}.",
    endProposed:
      "Case {id}: {lifted, plural, =0 {} one {# lifted now; } other {# lifted now; }}{proposed, plural, one {# lift waits} other {# lifts wait}} for a second person's approval. End the case again once they are approved.",
    tooLong: "At most {max, plural, other {# characters}}.",
    kindMissing: "Choose the kind of case.",
    referenceMissing: "Give the order's or ticket's reference.",
    requestedByMissing: "Say who asked.",
    noteMissing: "Say what the review found.",
    reviewNotDay: "“{value}” is not a day (YYYY-MM-DD).",
    reviewPast: "The review date {day} has passed; choose today or a later day.",
    reviewTooFar: "The review date {day} is more than {years, number} years ahead.",
    none: "There is no case {id}.",
    ended: "Case {id} ended on {at}; open a new case instead.",
    kindNameMissing: "Give the kind's name in English and in Czech.",
    kindNameLong: "A kind's name has at most {max} characters.",
    kindCodeInvalid: "A kind's code is a lowercase letter, then up to 39 lowercase letters, digits or underscores (court_order).",
    kindPositionInvalid: "The position in the list is a whole number from 0 to 1000.",
    kindAdded: "Kind of case “{kind}” added.",
    kindSaved: "Kind of case “{kind}” saved.",
    kindRetired: "Kind of case “{kind}” retired: no new case or rule names it; its cases keep it.",
    kindOffered: "Kind of case “{kind}” is offered again.",
    kindLast: "That is the last kind of case offered: add another before retiring it.",
    kindExists: "There is a kind of case “{kind}” already: change it in its row.",
    kindUnknown: "There is no kind of case “{kind}”.",
    openedAlready: "Case {id} was already opened from this form; nothing new was done.",
    opened: "Case {id} opened ({reference}).",
    reviewed: "Case {id} reviewed{next, select, none {} other {; next review by {next}}}.",
    approvalNeeded:
      "{change, select, make {Making} change {Changing} other {Lifting}} {state} on {object} needs a second person's approval: propose it, and another person approves it.",
    changeKindUnknown: "Choose making, changing or lifting, or any.",
    ruleUnknown: "There is no such approval rule.",
    ruleStateNotManual: "{state} is not a manual state: no one makes it, so no rule can hold it back.",
    ruleExists: "This rule is already in force.",
    ruleAdded: "Approval rule {id} added.",
    ruleRemoved: "Approval rule {id} removed.",
    reasonTooLong: "In a case the reason has at most {max, plural, other {# characters}}: FRED keeps 300 with the case's reference.",
    commandUnknown: "Unknown kind of change.",
    changeUnknown: "Unknown pending change.",
    proposed: "Change {id} waits for a second person's approval: {summary}",
    changeNone: "There is no pending change {id}.",
    changeDecided:
      "Change {id} was already {status, select, applied {approved and applied} rejected {rejected} withdrawn {withdrawn} other {decided}} by {by} on {at}.",
    ownProposal: "Change {id} is your own proposal: another person must approve it.",
    changedSince: "Change {id} was edited by its proposer since you opened it (version {version}): read it again before approving.",
    late: "Change {id} was to start on {from}, which passed while it waited: approve it from now, or reject it.",
    noLongerHolds: "Change {id} cannot be applied now, so nothing was done: {why}",
    approved: "Change {id} approved and applied: {made}",
    rejected: "Change {id} rejected; nothing was done.",
    notOwnProposal: "Change {id} is {by}'s proposal: only they may withdraw it.",
    editNoPeriod: "Change {id} lifts a block or cancels a request: it has no period to edit, only its reason.",
    notOwnEdit: "Change {id} is {by}'s proposal: only they may edit it.",
    edited: "Change {id} was edited and waits for approval again: {summary}",
    withdrawn: "Change {id} withdrawn; nothing was done.",
  },
} as const;
