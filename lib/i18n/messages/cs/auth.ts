import type { Catalog } from "../catalog";
import type { auth as en } from "../en/auth";

export const auth: Catalog<typeof en> = {
  login: {
    title: "Přihlášení",
    intro: "Konzole stavů registru je určena správcům registru a pracovníkům podpory.",
    sso: "SSO",
  },
  signIn: {
    username: "Uživatelské jméno",
    password: "Heslo",
    submit: "Přihlásit se",
    pending: "Přihlašování…",
    withSso: "Přihlásit se přes {name}",
    code: "Kód z aplikace pro ověřování",
    codeHint: "Šest číslic, nebo jeden z kódů pro obnovení.",
    useKey: "Použít bezpečnostní klíč",
    keyPending: "Dotkněte se bezpečnostního klíče…",
    keyCancelled:
      "Bezpečnostní klíč neodpověděl: akce byla zrušena, vypršel čas, nebo klíč není u tohoto účtu zaregistrovaný. Zkuste to znovu.",
    keyWrongSite:
      "Bezpečnostní klíče fungují jen tam, kde je pro ně konzole nastavená: na adrese pod {rpId}, přes HTTPS (nebo localhost). Otevřete konzoli tam, nebo zadejte kód.",
    keyUnsupported:
      "Tento prohlížeč bezpečnostní klíče neumí. Použijte jiný prohlížeč, nebo zadejte kód, pokud máte aplikaci pro ověřování.",
    errors: {
      CredentialsSignin: "Přihlášení se nezdařilo: uživatelské jméno nebo heslo je chybné, případně je účet deaktivován.",
      AccessDenied: "Váš účet jednotného přihlášení nemá do této konzole přístup. Obraťte se na správce.",
      AccountNotLinked:
        "V konzoli už je účet s vaším uživatelským jménem, který není propojen s vaší identitou z jednotného přihlášení nebo z adresáře, takže jste nebyli přihlášeni. Je-li ten účet váš, požádejte správce, aby pro něj na stránce Uživatelé povolil jednotné přihlášení / přihlášení přes adresář, a přihlaste se znovu.",
      OAuthSignin:
        "Služba jednotného přihlášení není dostupná, takže se přes ni teď přihlásit nelze. Zkuste to za chvíli; přihlášení jménem a heslem funguje dál.",
      OAuthCallback: "Služba jednotného přihlášení přihlášení nedokončila. Zkuste to za chvíli; přihlášení jménem a heslem funguje dál.",
      SecondFactorRequired: "Heslo je správné. Zadejte teď kód z aplikace pro ověřování.",
      SecondFactorWrong: "Kód je chybný nebo už byl použit. Zadejte aktuální kód z aplikace pro ověřování, nebo kód pro obnovení.",
      SecondFactorKey: "Heslo je správné. Použijte teď bezpečnostní klíč.",
      SecondFactorEither: "Heslo je správné. Použijte teď bezpečnostní klíč, nebo zadejte kód z aplikace pro ověřování.",
      SecondFactorKeyWrong:
        "Odpověď bezpečnostního klíče nebyla přijata (klíč jiného účtu, nebo stará odpověď). Zkuste to znovu klíčem zaregistrovaným u vašeho účtu.",
      SecondFactorEitherWrong:
        "Nepřijato. Použijte bezpečnostní klíč zaregistrovaný u vašeho účtu, nebo zadejte aktuální kód z aplikace pro ověřování či kód pro obnovení.",
      DirectoryUnavailable:
        "Adresář registru (LDAP) není dostupný, takže heslo z adresáře nelze ověřit. Zkuste to za chvíli; účty vedené jen v konzoli se přihlásit mohou.",
      NoConsoleGroup:
        "Váš účet v adresáři není v žádné ze skupin, které dávají přístup do této konzole, proto jste byli všude odhlášeni. Požádejte správce o zařazení do skupiny konzole.",
      BadBytes:
        "Přihlášení se nezdařilo: uživatelské jméno nebo heslo obsahuje znak, který se při přihlášení nepoužívá (NUL nebo jiný řídicí znak, případně poškozený Unicode). Napište je znovu.",
      Unavailable: "Databáze konzole neodpovídá, takže se teď nikdo nemůže přihlásit. Zkuste to za chvíli.",
      other: "Přihlášení se nezdařilo. Zkuste to znovu.",
      throttled: {
        address: "Příliš mnoho neúspěšných pokusů o přihlášení z vaší adresy. Počkejte {wait} a zkuste to znovu.",
        account:
          "Příliš mnoho neúspěšných pokusů o přihlášení pod tímto uživatelským jménem za poslední hodinu. Zkuste to znovu za {wait}, nebo se přihlaste ze sítě, ze které jste se už přihlašovali.",
        global:
          "Konzole právě dostává velmi mnoho neúspěšných pokusů o přihlášení. Zkuste to znovu za {wait}, nebo se přihlaste ze sítě, ze které jste se už přihlašovali.",
      },
    },
    wait: {
      seconds: "{count, plural, one {# sekundu} few {# sekundy} other {# sekund}}",
      minutes: "{count, plural, one {# minutu} few {# minuty} other {# minut}}",
    },
  },
  account: {
    secondFactor: {
      title: "Dvoufázové přihlášení",
      required: "Správci zde potřebují dvoufázové přihlášení: nastavte si ho, abyste mohli konzoli používat.",
      off: "Po hesle (nebo hesle z adresáře) se konzole zeptá i na kód z aplikace pro ověřování v telefonu (jakákoli aplikace TOTP).",
      offWithKeys:
        "Dvoufázové přihlášení je zapnuté s bezpečnostními klíči (níže). Můžete přidat i aplikaci pro ověřování v telefonu (jakákoli aplikace TOTP), ke které dostanete kódy pro obnovení.",
      start: "Nastavit dvoufázové přihlášení",
      scan: "Naskenujte tento kód aplikací pro ověřování, nebo do ní opište klíč. Pak zadejte šest číslic, které ukáže.",
      qrLabel: "QR kód klíče pro aplikaci pro ověřování",
      key: "Klíč:",
      code: "Kód z aplikace",
      confirm: "Zapnout dvoufázové přihlášení",
      done: "Hotovo: kódy pro obnovení mám uložené",
      on: "Zapnuto od {since}. Zbývá {left, plural, one {# kód} few {# kódy} other {# kódů}} pro obnovení. Ztracený telefon? Správce ho může zrušit.",
      renew: "Nové kódy pro obnovení",
      turnOff: "Vypnout aplikaci",
      turnOffConfirm: "Vypnout dvoufázové přihlášení s aplikací pro ověřování? Přestanou platit i jeho kódy pro obnovení.",
      replace: "Chcete-li jinou aplikaci nebo telefon, tuto vypněte a nastavte znovu.",
    },
    title: "Váš účet",
    securityKeys: {
      title: "Bezpečnostní klíče a passkeys",
      text: "Bezpečnostní klíč (například YubiKey) nebo passkey v tomto počítači či telefonu může být druhým krokem přihlášení místo kódu. Zaregistrujte si dva, ať vás ztráta jednoho nezablokuje; správce je může zrušit.",
      none: "Žádný bezpečnostní klíč není zaregistrovaný.",
      name: "Název klíče",
      namePlaceholder: "modrý YubiKey",
      add: "Přidat bezpečnostní klíč",
      touch: "Dotkněte se bezpečnostního klíče, nebo potvrďte na zařízení…",
      cancelled: "Prohlížeč klíč nezaregistroval: akce byla zrušena, nebo vypršel čas.",
      wrongSite:
        "Bezpečnostní klíče fungují jen tam, kde je pro ně konzole nastavená: na adrese pod {rpId}, přes HTTPS (nebo localhost). Otevřete konzoli tam.",
      registeredAlready: "Tento klíč už je u vašeho účtu zaregistrovaný.",
      unsupported: "Tento prohlížeč bezpečnostní klíče neumí.",
      columns: { name: "Klíč", added: "Přidán", lastUsed: "Naposledy použit" },
      never: "nikdy",
      remove: "Odebrat",
      removeConfirm: "Odebrat vybraný bezpečnostní klíč? Už vás nepřihlásí.",
      removeTitle: "Odebrat klíč",
      removeWhich: "Klíč k odebrání",
    },
    signedInAs: "Přihlášen(a) jako {username} ({role}).",
    proof: {
      password: "Vaše současné heslo",
      directory: "Vaše heslo z adresáře",
      freshSignIn:
        "Přihlašujete se jednotným přihlášením: 10 minut po přihlášení zde můžete měnit způsob přihlašování; potom se nejprve odhlaste a znovu přihlaste.",
    },
    email: {
      title: "E-mail pro oznámení",
      text: "Když se změní vaše heslo nebo dvoufázové přihlášení, konzole vám to řekne při příštím přihlášení a s adresou zde hned e-mailem. Prázdné pole: žádné e-maily.",
      address: "E-mailová adresa",
      save: "Uložit adresu",
    },
    sessions: {
      title: "Vaše relace",
      text: "Všechny prohlížeče, které jsou teď přihlášené jako vy. Ukončete ty, které neznáte, a změňte si heslo.",
      columns: { where: "Odkud (adresa)", browser: "Prohlížeč", opened: "Přihlášení", lastSeen: "Naposledy aktivní" },
      current: "tento prohlížeč",
      end: "Ukončit",
      endConfirm: "Ukončit tuto relaci? Ten prohlížeč se bude muset znovu přihlásit.",
      none: "Žádné otevřené relace.",
    },
    password: {
      title: "Změna hesla",
      text: "Zadejte současné heslo a dvakrát nové. Změna ukončí vaše ostatní relace: každý další prohlížeč, ve kterém jste přihlášeni, se musí přihlásit znovu novým heslem. Tento zůstane přihlášen.",
      rules:
        "Alespoň 12 znaků a žádné běžné, uniklé ani snadno uhodnutelné heslo. Nejlepší je dlouhá fráze z několika nesouvisejících slov; počítá se celá.",
      current: "Současné heslo",
      new: "Nové heslo",
      confirm: "Nové heslo znovu",
      submit: "Změnit heslo",
      noPassword: "Přihlašujete se přes jednotné přihlášení (SSO): tento účet nemá v konzoli žádné heslo, které by šlo změnit.",
    },
  },
  notFound: {
    title: "Stránka nenalezena",
    text: "Na této adrese v konzoli žádná stránka není.",
    back: "Přejít na přehled",
  },
  forbidden: {
    title: "Přístup odepřen",
    text: "Vaše role tuto stránku ani akci nepovoluje. Správce vám může roli změnit v části Uživatelé.",
    back: "Zpět na objekty",
  },
  unauthorized: {
    title: "Pro pokračování se přihlaste",
    text: "Nejste přihlášeni, nebo vaše relace skončila (po 30 minutách nečinnosti, nejpozději po 12 hodinách nebo když ji ukončil správce).",
    signIn: "Přihlásit se",
  },
  unavailable: {
    title: "Databáze nedostupná",
    heading: "Databáze registru není dostupná",
    text: "Konzole se teď nemůže spojit se svou databází: možná se restartuje nebo je přerušeno síťové spojení s ní. Nic nezůstalo napůl – každá změna se uloží buď celá, nebo vůbec, a znovu odeslaný formulář změnu nikdy neprovede dvakrát.",
    retry: "Stránka se o spojení pokouší znovu každých 5 sekund. <link>Zkusit hned</link>",
  },
};
