import type { Catalog } from "../catalog";
import type { server as en } from "../en/server";

const objectType =
  "{type, select, domain {doménu} contact {kontakt} nsset {sadu jmenných serverů (nsset)} keyset {sadu klíčů (keyset)} other {typ {type}}}";

export const server: Catalog<typeof en> = {
  input: {
    checked: "{text}",
    unknown:
      "{what, select, object {Neznámý objekt.} request {Neznámý požadavek.} block {Neznámá blokace.} user {Neznámý uživatel.} token {Neznámý token.} securityKey {Neznámý bezpečnostní klíč.} other {Neznámá položka: {what}.}}",
  },
  reason: {
    missing: "Uveďte důvod.",
    tooLong: "Důvod smí mít nejvýše {max, plural, one {# znak} few {# znaky} other {# znaků}}.",
  },
  form: {
    keyDamaged: "Klíč odeslání formuláře je poškozený; načtěte stránku znovu.",
    batchDamaged: "Klíč dávky ve formuláři je poškozený; načtěte stránku znovu.",
  },
  field: {
    unknownState: "Neznámý stav.",
    deleted: "Objekt je smazaný.",
    automatic: "Automatický stav.",
    notForType: "Pro tento typ neplatí.",
    blockOnly: "Použijte Blokovat.",
    notInstant: "Nejde o datum a čas.",
    tooFar: "Je více než {years, number} let od nynějška.",
    inPast: "Je v minulosti.",
    beforeStart: "Je před začátkem.",
    overlapsRequest: "Překrývá se s jiným požadavkem.",
    blocked: "Blokováno.",
    nothingToChange: "Nic nemění.",
    partOfBlock: "Součást blokace.",
    unknownProhibition: "Neznámý zákaz.",
    overlapsBlockRequest: "Překrývá se s požadavkem.",
    begun: "Blokace už začala.",
    invalid: "Neplatná hodnota.",
    tooMany: "Příliš mnoho.",
    empty: "Nevyplněno.",
    usernameTaken: "Toto uživatelské jméno je obsazené.",
    taken: "Obsazeno.",
  },
  request: {
    chooseState: "Zvolte stav.",
    noObject: "Objekt s ID {id} neexistuje.",
    objectDeleted: "Objekt {object} byl smazán {at}; pro smazané objekty nelze podávat požadavky.",
    noState: "Stav „{state}“ neexistuje.",
    automatic: "Stav {state} je automatický: nastavuje ho výpočet stavů podle údajů registru; požádat lze jen o ruční stavy.",
    blockOnly: "{object} se blokuje akcí Blokovat (serverBlocked spolu s jejími zákazy), ne požadavkem na serverBlocked.",
    notForType: `Stav {state} se nevztahuje na ${objectType}.`,
    startNotInstant: "Začátek „{value}“ není datum a čas.",
    startInPast: "Začátek {from} je v minulosti; požadavek může začít nejdříve nyní.",
    endNotInstant: "Konec „{value}“ není datum a čas.",
    startTooFar: "Začátek {from} je více než {years, number} let od nynějška; požadavky začínají a končí nejpozději {latest}.",
    endTooFar:
      "Konec {to} je více než {years, number} let od nynějška; požadavky končí nejpozději {latest} (pro požadavek bez konce nechte konec prázdný).",
    endInPast: "Konec {to} je v minulosti.",
    endNotAfterStart: "Konec {to} není po začátku {from}.",
    sameState: "Objekt {object} už má požadavek {id} na stav {state} ({from} → {to}); dva požadavky na jeden stav se nesmějí překrývat.",
    zoneClash: "Objekt {object} má požadavek {id} na stav {state} ({from} → {to}); doména nemůže být zároveň v zóně i mimo zónu.",
    blocked:
      "Objekt {object} je administrativně blokován (blokace {block}, {from} → {to}); jeho stavy server* se mění jen prostřednictvím blokace: změňte nebo zrušte blokaci.",
    overlapsNow: "Objekt {object} už má překrývající se požadavek na stav {state}; načtěte stránku znovu a zkontrolujte ho.",
    overlapsSameMoment:
      "Ve stejném okamžiku vznikl jiný požadavek na tento stav a překrývá se s tímto; načtěte stránku znovu a zkontrolujte ho.",
    summary: "{state} u objektu {object} od {from} do {to}.",
    summaryOpen: "{state} u objektu {object} od {from} bez konce.",
    created: "Požadavek {id}: {summary}",
    repeated: "Tento formulář už byl odeslán: požadavek {id} existuje; nic nového nevzniklo.",
    noRequest: "Požadavek {id} neexistuje.",
    alreadyCanceled: "Požadavek {id} už byl zrušen {at}.",
    partOfBlock: "Požadavek {id} je součástí blokace {block}; ukončíte ho zrušením blokace.",
    ended: "Požadavek {id} skončil {at}; zrušit lze jen požadavky, které ještě neskončily.",
    canceledEnded: "Požadavek {id} zrušen: {state} u objektu {object} nyní skončil.",
    canceledFuture: "Požadavek {id} zrušen: {state} u objektu {object} nezačne platit.",
  },
  preview: {
    keepsUntil: "Objekt {object} si ponechá {state} jen do {to}.",
    keepsOpen: "Objekt {object} si ponechá {state} bez konce.",
    gets: "Objekt {object} získá {state} {start, select, now {ihned} other {od {from}}}{end, select, open {, bez konce} other { do {to}}}{refused, select, none {} other {; příkazy EPP {refused} budou odmítány}}.",
    noLongerGets: "Objekt {object} už nezíská {state} od {from}.",
    nothing: "{state} by u objektu {object} nic nezměnil: podle pravidel už má tytéž stavy.",
  },
  block: {
    notProhibition: "{state} není zákaz, který může blokace nastavit.",
    startsInside: "Požadavek {id} na stav {state} začíná uvnitř období blokace ({from}); nejdřív ho zrušte nebo zvolte jiné období.",
    summary:
      "objekt {object} blokován {start, select, now {od nynějška} other {od {from}}} {end, select, open {bez konce} other {do {to}}} (serverBlocked, {prohibitions}).",
    created: "Blokace {id}: {summary}",
    noBlock: "Blokace {id} neexistuje.",
    notGiven: "Uveďte, o kterou blokaci jde: žádná nebyla zadána.",
    noBlockRequest: "Požadavek {id} není požadavkem blokace na serverBlocked.",
    alreadyLifted: "Blokace {id} už byla zrušena {at}.",
    endedNothingToLift: "Blokace {id} skončila {at}; není co rušit.",
    lifted:
      "Blokace {id} zrušena: objekt {object} už není blokován{restored, plural, =0 {} one {; obnoven # dřívější zákaz} few {; obnoveny # dřívější zákazy} other {; obnoveno # dřívějších zákazů}}.",
    liftedBlockAgain: "Blokace {id} byla zrušena {at}; místo změny objekt zablokujte znovu.",
    endedBlockAgain: "Blokace {id} skončila {at}; místo změny objekt zablokujte znovu.",
    begun: "Blokace {id} začala {at}; její začátek už nelze změnit.",
    nothingToChange:
      "Blokace {id} už má toto období i tyto zákazy: není co měnit. Změňte její konec, začátek nebo zákazy, nebo ji ponechte, jak je.",
    changed: "Blokace {id} změněna: {change}",
  },
  bulk: {
    listTooLong: "Seznam je příliš dlouhý.",
    filterTooLong: "Filtr je příliš dlouhý.",
    chooseKind: "Zvolte požadavek nebo blokaci.",
    filterInvalid: "Filtr seznamu není platný: {notices}",
    filterTooMany: "Filtru seznamu odpovídá více než {max, number} objektů; nejdřív ho zužte.",
    empty: "Vložte alespoň jeden název nebo handle, nebo začněte od filtru seznamu, kterému odpovídají nějaké objekty.",
    tooMany: "{count, plural, one {# název} few {# názvy} other {# názvů}}: jedna hromadná změna zvládne nejvýše {max, number}.",
    alreadyApplied:
      "Tato dávka už byla provedena ({count, plural, one {# požadavek} few {# požadavky} other {# požadavků}}); nic nového se nestalo.",
    noSuchObject:
      "{type, select, domain {Nesmazaná doména} contact {Nesmazaný kontakt} nsset {Nesmazaná sada jmenných serverů (nsset)} keyset {Nesmazaná sada klíčů (keyset)} object {Nesmazaný objekt} other {Nesmazaný objekt typu {type}}} s názvem {name} neexistuje.",
    ambiguous: "{name} označuje více objektů ({types}); zvolte typ.",
    notMade: "neprovedeno, dávka byla odmítnuta: {change}",
    willApply: "provede se: {change}",
    applied:
      "{count, plural, one {Provedeno u # objektu} few {Provedeno u všech # objektů} other {Provedeno u všech # objektů}} (dávka {batch}).",
    dryRun: "Zkušební běh: provést lze {ok, number} z {total, number}{refused, plural, =0 {} other {, odmítnuto: #}}; nic nebylo změněno.",
    refused: "{refused, number} z {total, number} nelze provést; nic nebylo změněno. Opravte je nebo odeberte a zkuste to znovu.",
    noticeList: "{first} {rest}",
  },
  secondFactor: {
    alreadyOn:
      "Dvoufázové přihlášení už je zapnuté. Chcete-li jinou aplikaci, nejprve ho vypněte (nebo ho zruší správce: ztracený telefon).",
    notOn: "Dvoufázové přihlášení s aplikací není zapnuté.",
    removed: "Dvoufázové přihlášení s aplikací je vypnuté; jeho kódy pro obnovení už neplatí.",
    recoveryRenewed:
      "Nové kódy pro obnovení, každý platí jednou, zobrazené jen teď: {codes}. Staré už neplatí. Uložte je tam, kde máte hesla.",
    started: "Přidejte klíč do aplikace pro ověřování a zadejte kód, který ukáže.",
    codeMissing: "Zadejte kód, který ukazuje vaše aplikace pro ověřování.",
    codeForm: "Kód má šest číslic.",
    notStarted: "Nejprve začněte nastavovat dvoufázové přihlášení.",
    wrongCode: "Tento kód aplikace teď neukazuje. Zkontrolujte hodiny aplikace a zadejte aktuální kód.",
    enrolled:
      "Dvoufázové přihlášení je zapnuté. Kódy pro obnovení, každý platí jednou, zobrazené jen teď: {codes}. Uložte je tam, kde máte hesla.",
    noneToReset: "{username} nemá dvoufázové přihlášení, které by šlo zrušit.",
    reset: "Dvoufázové přihlášení uživatele {username} zrušeno: jeho relace skončily a může si ho nastavit znovu.",
  },
  securityKeys: {
    touch: "Dotkněte se bezpečnostního klíče nebo potvrďte na zařízení.",
    nameMissing: "Pojmenujte klíč (například „modrý YubiKey“ nebo „notebook“), ať víte, který odebrat, když ho ztratíte.",
    nameTooLong: "Název klíče smí mít nejvýše {max, plural, one {# znak} few {# znaky} other {# znaků}}.",
    noResponse: "Prohlížeč neposlal odpověď bezpečnostního klíče. Zkuste to znovu a dotkněte se klíče, až zabliká.",
    notVerified: "Odpověď klíče nešlo ověřit: patří k jiné adrese konzole, nebo trvala déle než pět minut. Zkuste to znovu.",
    alreadyAdded: "Tento klíč už je zaregistrovaný.",
    tooMany: "Už máte {max, plural, one {# klíč} few {# klíče} other {# klíčů}}, víc mít nelze. Nejprve jeden odeberte.",
    added: "Bezpečnostní klíč „{name}“ přidán: konzole se na něj zeptá při přihlášení.",
    removed: "Bezpečnostní klíč „{name}“ odebrán.",
  },
  users: {
    enterUsername: "Zadejte uživatelské jméno.",
    usernameForm: "Uživatelské jméno má 2–64 znaků: písmena, číslice a . _ @ - (na začátku písmeno nebo číslice).",
    chooseRole: "Zvolte roli: {roles}.",
    enterPassword: "Zadejte heslo.",
    passwordTooShort: "Heslo musí mít alespoň {min, plural, one {# znak} few {# znaky} other {# znaků}}.",
    passwordTooLong: "Heslo smí mít nejvýše {max, plural, one {# znak} few {# znaky} other {# znaků}}.",
    nameTooLong: "Jméno smí mít nejvýše {max, plural, one {# znak} few {# znaky} other {# znaků}}.",
    noUser: "Uživatel s ID {id} neexistuje.",
    directoryPassword: "{username} se přihlašuje heslem z adresáře (LDAP): heslo konzole by se nikdy nepoužilo. Změňte ho v adresáři.",
    lastAdmin: "Toto je poslední aktivní správce; nejdřív udělejte správcem jiného uživatele.",
    taken: "Uživatelské jméno {username} je obsazené.",
    created: "Uživatel {username} ({role}) byl přidán.",
    roleSet: "Uživatel {username} má nyní roli {role}; jeho relace byly ukončeny.",
    notYourself: "Vlastní účet nemůžete deaktivovat.",
    disabled: "Uživatel {username} byl deaktivován a odhlášen.",
    enabled: "Uživatel {username} se může znovu přihlásit.",
    signedOut: "Všechny relace uživatele {username} byly ukončeny.",
    passwordSet: "Heslo uživatele {username} bylo změněno; jeho relace byly ukončeny.",
    allowLinkChoice: "Zvolte, zda propojení povolit: on, nebo off.",
    linkAllowed:
      "Příští jednotné přihlášení (SSO) nebo přihlášení přes adresář jako {username} během {days, plural, one {# dne} few {# dnů} other {# dní}} propojí tuto identitu s tímto účtem, který se pak přihlašuje přes ni.",
    linkWithdrawn: "Propojení uživatele {username} při příštím jednotném přihlášení nebo přihlášení přes adresář už není povoleno.",
    passwordCommon:
      "Toto heslo je na seznamu běžných a uniklých hesel, nebo je jen malou obměnou některého z nich (slovo s přidanými číslicemi či symboly, řada kláves): ta útočníci zkoušejí jako první. Zvolte jiné: silné heslo tvoří několik nesouvisejících slov.",
    passwordPersonal:
      "Toto heslo je příliš snadné uhodnout: vychází z uživatelského jména, jména osoby nebo názvu konzole. Zvolte jiné: silné heslo tvoří několik nesouvisejících slov.",
    passwordGuessable:
      "Toto heslo je příliš snadné uhodnout: skládá se z běžných slov, jmen, dat, opakování, posloupností nebo vzorů na klávesnici. Zvolte delší: silné heslo tvoří několik nesouvisejících slov.",
    enterCurrentPassword: "Zadejte své současné heslo.",
    wrongCurrentPassword: "Současné heslo je chybné; nic nebylo změněno.",
    passwordsDiffer: "Obě nová hesla se liší; zadejte dvakrát totéž nové heslo.",
    passwordUnchanged: "Nové heslo je stejné jako současné; zvolte nové.",
    noOwnPassword: "Váš účet se přihlašuje přes jednotné přihlášení (SSO) a nemá v konzoli žádné heslo, které by šlo změnit.",
    passwordThrottled: "Příliš mnoho chybných hesel k vašemu účtu z této adresy. Počkejte {wait} a zkuste to znovu; nic nebylo změněno.",
    passwordChangedMeanwhile: "Vaše heslo bylo mezitím změněno (v jiné relaci nebo správcem); nic nebylo změněno. Načtěte stránku znovu.",
    ownPasswordChanged:
      "Vaše heslo bylo změněno. {count, plural, =0 {Jiné relace jste neměli.} one {Vaše další relace byla ukončena.} few {Vaše # další relace byly ukončeny.} other {Vašich # dalších relací bylo ukončeno.}}",
    waitSeconds: "{count, plural, one {# sekundu} few {# sekundy} other {# sekund}}",
    waitMinutes: "{count, plural, one {# minutu} few {# minuty} other {# minut}}",
    directoryUnavailable:
      "Adresář registru (LDAP) není dostupný, takže heslo z adresáře nelze ověřit; nic se nezměnilo. Zkuste to za chvíli znovu.",
    signInAgain:
      "Váš účet se přihlašuje jednotným přihlášením, které nemá heslo, na něž by se konzole mohla zeptat. Odhlaste se, znovu se přihlaste a udělejte to do {minutes, plural, one {# minuty} few {# minut} other {# minut}}; nic se nezměnilo.",
    emailForm: "To není e-mailová adresa (jmeno@domena).",
    emailSet: "Oznámení o změnách přihlašování půjdou na {email}.",
    emailCleared: "Bez e-mailové adresy: oznámení o změnách se zobrazí jen při přihlášení.",
    sessionUnknown: "Tato relace není vaše, nebo už skončila.",
    sessionEnded: "Relace byla ukončena: ten prohlížeč se musí znovu přihlásit.",
  },
  notices: {
    heading: "Od vašeho posledního přihlášení",
    line: "{when}: {what}",
    from: "Z adresy {address}.",
    by: "Provedl(a) {username}.",
    kinds: {
      password_changed: "vaše heslo bylo změněno.",
      password_set: "správce vám nastavil nové heslo.",
      email_changed: "e-mailová adresa pro tato oznámení byla změněna.",
      second_factor_enrolled: "dvoufázové přihlášení s aplikací pro ověřování bylo zapnuto.",
      second_factor_removed: "dvoufázové přihlášení s aplikací pro ověřování bylo vypnuto.",
      second_factor_reset: "správce zrušil vaše dvoufázové přihlášení (aplikaci i bezpečnostní klíče).",
      recovery_codes_renewed: "byly vytvořeny nové kódy pro obnovení; staré už neplatí.",
      security_key_added: "byl přidán bezpečnostní klíč.",
      security_key_removed: "byl odebrán bezpečnostní klíč.",
    },
    notYou: "Nebyli jste to vy? Změňte si heslo a dejte vědět správci.",
    mailSubject: "Konzole stavů registru: vaše přihlašování bylo změněno",
    mailText:
      "Dobrý den, {username},\n\n{line}\n\nPokud jste to nebyli vy, ihned si změňte heslo (Váš účet) a dejte vědět správci, který může ukončit všechny relace vašeho účtu.\n\n— Konzole stavů registru",
  },
  params: {
    nul: "„{name}“ v adrese obsahuje znak NUL (%00), který nemá žádný název, ID ani datum; byl vynechán.",
    positionValue:
      "Pozice stránky v odkazu je poškozená: {problem, select, date {„{value}“ není skutečné datum a čas} id {„{value}“ není ID řádku (celé číslo od 1 do {max, number})} nul {obsahuje znak NUL} other {„{value}“ není hodnota tohoto sloupce}}; zobrazuje se první stránka.",
  },
  filter: {
    unknownType: "Neznámý typ objektu „{type}“; zobrazují se všechny typy.",
    nameTooLong: "Filtr názvu je delší než {max, plural, one {# znak} few {# znaky} other {# znaků}}; byl vynechán.",
    nameMatch: "Shoda názvu „{match}“ není prefix ani contains; použije se contains.",
    notRegistrarHandle: "„{registrar}“ není handle registrátora; filtr registrátora byl vynechán.",
    noRegistrar: "Registrátor „{registrar}“ neexistuje; filtr registrátora byl vynechán.",
    notInstant: "{label}: „{text}“ není datum ani čas (použijte RRRR-MM-DD nebo RRRR-MM-DDTHH:MM); filtr byl vynechán.",
    notDate: "{label}: „{text}“ není datum (RRRR-MM-DD); filtr byl vynechán.",
    instantTooFar:
      "{label}: „{text}“ je více než {years, number} let od nynějška (filtry berou okamžiky od {earliest} do {latest}); filtr byl vynechán.",
    label: {
      at: "Okamžik",
      from: "Začátek období",
      to: "Konec období",
      requestFrom: "Začátek požadavku od",
      requestTo: "Začátek požadavku před",
    },
    deletedMode: "Smazané objekty „{deleted}“: hodnota není include, only ani exclude; smazané objekty jsou vynechány.",
    unknownState: "Neznámý stav „{state}“; byl vynechán z filtru stavů.",
    stateMode: "Režim stavů „{mode}“ není jedním z {modes}; použije se „now“.",
    stateMatch: "Shoda stavů „{match}“ není all ani any; použije se all.",
    withoutStates:
      "{count, plural, one {„{names}“ patří} few {„{names}“ patří} other {„{names}“ patří}} k filtru stavů, ale žádný stav nebyl zvolen; {count, plural, one {byl vynechán} few {byly vynechány} other {byly vynechány}}.",
    withoutRequestState:
      "{count, plural, one {„{names}“ patří} few {„{names}“ patří} other {„{names}“ patří}} k filtru žádostí, ale nebyl pro něj zvolen stav; {count, plural, one {byl vynechán} few {byly vynechány} other {byly vynechány}}.",
    withoutName: "„match“ patří k hledání podle jména, ale žádné jméno nebylo zadáno; byl vynechán.",
    unknownParameter:
      "{count, plural, one {„{names}“ není filtrem tohoto seznamu; byl přeskočen} few {„{names}“ nejsou filtry tohoto seznamu; byly přeskočeny} other {„{names}“ nejsou filtry tohoto seznamu; byly přeskočeny}}.",
    needsInstant: "Volba „{mode}“ vyžaduje okamžik; zobrazují se objekty, které mají stavy nyní.",
    forecast:
      "Po současném okamžiku ({now}) je seznam předpovědí: stavy, které přinesou pravidla a naplánované požadavky, pokud se nic jiného nezmění. Prodloužení, nový požadavek nebo jiná změna do té doby ji změní.",
    rangeReversed: "Období končí dřív, než začíná; zobrazují se objekty, které mají stavy nyní.",
    needsRange: "Volba „{mode}“ vyžaduje začátek i konec období; zobrazují se objekty, které mají stavy nyní.",
    pending: "Naplánovaný požadavek „{pending}“: hodnota není 1; filtr byl vynechán.",
    sort: "Řazení „{sort}“ není jedním z {keys} (sestupně s předponou -); řazeno podle názvu.",
    sortExpires: "Expirují jen domény: pro řazení podle expirace zvolte typ „doména“; řazeno podle názvu.",
    sortWhen:
      "Řadit podle {sort, select, from {začátku stavu} other {konce stavu}} lze jen s filtrem stavů k okamžiku nebo za období („měl v okamžiku“, „měl kdykoli v období“, „získal v období“, „ztratil v období“); řazeno podle názvu.",
    position: "Pozice stránky v odkazu je poškozená nebo patří k jinému řazení; zobrazuje se první stránka.",
    pageSize:
      "Velikost stránky „{size}“ není jednou z {sizes}; zobrazuje se {pageSize, plural, one {# řádek} few {# řádky} other {# řádků}} na stránku.",
    pageNumber: "Stránky se procházejí odkazy První, Předchozí, Další a Poslední; číslo stránky v odkazu nebylo použito.",
    noRowsBefore: "Před tímto místem už nejsou žádné řádky; zobrazuje se první stránka.",
    noRowsAfter: "Za tímto místem nejsou žádné řádky; zobrazuje se poslední stránka.",
  },
  requestList: {
    sort: "Řazení „{sort}“ není jedno z {sorts}; řadí se od nejnovějšího začátku.",
    phase: "Fáze „{phase}“ není jednou z {phases}; zobrazují se všechny fáze.",
    notManualState: "„{state}“ není ruční stav; zobrazují se všechny stavy.",
    notInstant: "„{value}“ není datum ani čas; filtr období byl vynechán.",
    instantTooFar:
      "„{value}“ je více než {years, number} let od nynějška (filtry berou okamžiky od {earliest} do {latest}); filtr období byl vynechán.",
    notBatch: "„{batch}“ není ID dávky; zobrazují se všechny dávky.",
    notRequestId: "„{id}“ není číslo požadavku (celé číslo); zobrazují se všechny požadavky.",
    position: "Pozice stránky v odkazu je poškozená; zobrazuje se první stránka.",
  },
  audit: {
    noObject: "Objekt s názvem „{object}“ neexistuje; filtr objektu se nepoužije.",
    noObjectId:
      "„{object}“ není ID objektu (celé číslo od 1 do {max, number}) a žádný objekt se tak nejmenuje; filtr objektu se nepoužije.",
    position: "Pozice stránky v odkazu je poškozená („{value}“ není ID záznamu); zobrazují se nejnovější záznamy.",
    notInstant:
      "„{value}“ není datum ani datum a čas (RRRR-MM-DD nebo RRRR-MM-DDTHH:MM); filtr „{key, select, from {Od} to {Do} other {{key}}}“ se nepoužije.",
    instantTooFar:
      "„{value}“ je více než {years, number} let od nynějška (filtry berou okamžiky od {earliest} do {latest}); filtr „{key, select, from {Od} to {Do} other {{key}}}“ se nepoužije.",
    noAction: "Žádný záznam auditního logu nemá akci „{action}“; filtr akce se nepoužije.",
  },
  objectPage: {
    unknownParameter:
      "{count, plural, one {„{names}“ není parametrem této stránky; byl přeskočen} few {„{names}“ nejsou parametry této stránky; byly přeskočeny} other {„{names}“ nejsou parametry této stránky; byly přeskočeny}}.",
    notAll: "„{name}={value}“ není volbou této stránky ({name}=all ukáže všechny řádky); zobrazují se nejnovější řádky.",
  },
  /** Co bylo špatně v adrese stránky stínového provozu (lib/states/shadow-page.ts). */
  shadow: {
    notRunId: "„{value}“ není číslo běhu (celé číslo); zobrazuje se nejnovější běh.",
    noRun: "Běh {id} neexistuje; zobrazuje se nejnovější běh.",
    page: "„{value}“ není číslo stránky (celé číslo od 1 do {max, number}); zobrazuje se první stránka.",
    pageBeyond: "Stránka {page} je za poslední stránkou rozdílů tohoto běhu; zobrazuje se poslední stránka.",
    cause: "„{value}“ není příčina (unexplained, fred_not_yet_run nebo fred_bug: s názvem známé chyby); zobrazují se všechny rozdíly.",
    days: "„{value}“ není počet dní od 1 do 365; potřeba je {days, number} dní.",
  },
  columns: {
    saved: "Tabulka ukazuje zvolené sloupce v každém prohlížeči, kde se přihlásíte.",
    table: "Zvolte tabulku: objects nebo requests.",
    unknown: "Tabulka nemá skrytelný sloupec {columns}; {key} se zobrazuje vždy, ostatní jsou {allowed}.",
  },
  language: {
    choose: "Zvolte angličtinu (en) nebo češtinu (cs).",
  },
  tokens: {
    nameMissing: "Pojmenujte klienta.",
    nameTooLong: "Název smí mít nejvýše {max, plural, one {# znak} few {# znaky} other {# znaků}}.",
    nameTaken: "Klient s názvem „{name}“ už existuje; zvolte jiný název.",
    created: "Token pro klienta {name}: zkopírujte si ho hned, znovu se už nezobrazí.",
    noToken: "Token {id} neexistuje.",
    alreadyRevoked: "Token klienta {name} už byl zneplatněn.",
    revoked: "Token klienta {name} je zneplatněn.",
  },
};
