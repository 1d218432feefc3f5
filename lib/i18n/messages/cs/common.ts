import type { Catalog } from "../catalog";
import type { common as en } from "../en/common";

export const common: Catalog<typeof en> = {
  brand: "Konzole stavů registru",
  description: "Přehled a řízení stavů objektů registru.",
  titleTemplate: "{page} · Konzole stavů registru",
  nav: {
    label: "Hlavní",
    overview: "Přehled",
    objects: "Objekty",
    requests: "Požadavky",
    cases: "Případy",
    approvals: "Schvalování",
    audit: "Auditní záznam",
    users: "Uživatelé",
    tokens: "API tokeny",
    policy: "Pravidla schvalování",
    account: "Váš účet: heslo",
  },
  roles: { admin: "správce", operator: "operátor", support: "podpora" },
  signOut: "Odhlásit se",
  language: {
    label: "Jazyk",
    changed: "Konzole nyní mluví česky.",
  },
  timeZone: "Časy v zóně {zone}",
  /** The header's quick search: an exact name or handle opens the object, anything else lists the matches. */
  quickSearch: {
    label: "Najít objekt podle jména, identifikátoru nebo čísla",
    placeholder: "Doména, handle, ID…",
    shortcut: "Klávesou / hledáte odkudkoli",
  },
  dates: {
    invalid: "Zapište {withTime, select, yes {datum a čas} other {datum}} jako {pattern}, například {example}.",
    noSuchDay: "Takový den neexistuje: {text}.",
    noSuchTime: "Takový čas neexistuje: {text}.",
    pick: "Vybrat z kalendáře",
  },
  skipToContent: "Přeskočit na obsah",
  none: "–",
  never: "nikdy",
  openEnded: "bez konce",
  inForce: "platí",
  period: "{from} → {to}",
  cancellation: {
    full: "{when} uživatelem {who}: {reason}",
    by: "{when} uživatelem {who}",
    reason: "{when}: {reason}",
    plain: "{when}",
  },
  system: "systém",
  loading: "Načítá se…",
  pageError: {
    title: "Tuto stránku nelze zobrazit",
    body: "Na serveru se něco pokazilo{reference}. Nic nebylo změněno.",
    reference: " (reference {digest}, v logu serveru)",
    retry: "Zkusit znovu",
    home: "Přejít na přehled",
  },
  errors: {
    unauthenticated: "Pro práci s konzolí se přihlaste; vaše relace mohla skončit.",
    forbidden: "Vaše role ({role}) k tomu nemá oprávnění.",
    secondFactorFirst: "Nejprve si nastavte dvoufázové přihlášení: správci ho zde potřebují (Váš účet).",
    unavailable:
      "Databáze registru teď není dostupná (restartuje se nebo je přerušeno síťové spojení s ní). Nic nezůstalo napůl: každá změna se uloží buď celá, nebo vůbec. Zkuste to za chvíli znovu; znovu odeslaný formulář změnu nikdy neprovede dvakrát.",
    failed: "Změna se nezdařila a nic nebylo změněno. Zkuste to znovu nebo požádejte správce o kontrolu logu.",
    invalid: "Zadané údaje nejsou platné.",
    nul: "Formulář obsahuje znak NUL (\\0), který žádné pole nesmí obsahovat; nic nebylo změněno.",
    deep: "Data formuláře jsou vnořená hlouběji než do {max, number} úrovní, což žádný formulář konzole neposílá; nic nebylo změněno.",
  },
};
