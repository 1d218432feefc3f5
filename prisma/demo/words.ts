// biome-ignore-all format: word lists read best as paragraphs
// Vocabulary for a Czech-flavoured demo registry. All names are invented; addresses use
// documentation IP ranges (RFC 5737, RFC 3849) and e-mail domains under example.cz.

export const DOMAIN_WORDS = [
  "pekarna", "autoservis", "kavarna", "praha", "brno", "ostrava", "novak", "svoboda", "zahrada", "stavby",
  "reality", "hotel", "penzion", "vinarstvi", "truhlarstvi", "elektro", "fotograf", "kadernictvi", "skola", "sport",
  "klub", "design", "studio", "eshop", "market", "servis", "doprava", "logistika", "pivovar", "restaurace",
  "bistro", "cukrarna", "lekarna", "zubar", "veterina", "ucetnictvi", "advokat", "pojisteni", "finance", "energie",
  "solar", "voda", "topeni", "okna", "dvere", "nabytek", "kuchyne", "koupelny", "podlahy", "strechy",
  "zahradnictvi", "kvetiny", "hracky", "knihy", "hudba", "divadlo", "kino", "galerie", "muzeum", "cestovky",
  "dovolena", "chata", "hory", "sumava", "krkonose", "beskydy", "morava", "cechy", "slezsko", "plzen",
  "liberec", "olomouc", "zlin", "jihlava", "pardubice", "hradec", "budejovice", "kladno", "most", "opava",
  "tabor", "pisek", "trebic", "znojmo", "kolin", "pribram", "cheb", "trutnov", "vyskov", "melnik",
  "kolo", "lyze", "fitness", "joga", "tanec", "masaze", "kosmetika", "moda", "obuv", "sperky",
  "hodinky", "foto", "video", "tisk", "reklama", "marketing", "web", "hosting", "data", "cloud",
  "software", "hry", "robot", "drony", "auto", "moto", "pneu", "nahradni", "dily", "stroje",
  "naradi", "kovo", "drevo", "beton", "kamen", "sklo", "keramika", "textil", "vyroba", "obchod",
  "centrum", "agentura", "spolek", "nadace", "farma", "statek", "vcelari", "rybarstvi", "myslivost", "les",
  "zdravi", "bylinky", "caj", "kava", "vino", "pivo", "syry", "maso", "pecivo", "cokolada",
] as const;

export const HOSTING_WORDS = [
  "alfahost", "betaweb", "cloudnet", "datapark", "hostik", "netbox", "serverovna", "webfarma", "zonehost", "rychlyweb",
] as const;

export const FIRST_NAMES = [
  "Jan", "Petr", "Josef", "Pavel", "Martin", "Tomáš", "Jaroslav", "Miroslav", "Zdeněk", "Václav",
  "Michal", "Karel", "Jiří", "Lukáš", "David", "Jakub", "Ondřej", "Marek", "Vojtěch", "Filip",
  "Jana", "Marie", "Eva", "Hana", "Anna", "Lenka", "Kateřina", "Lucie", "Věra", "Alena",
  "Petra", "Veronika", "Martina", "Jitka", "Tereza", "Michaela", "Zuzana", "Ivana", "Monika", "Barbora",
] as const;

export const SURNAMES = [
  "Novák", "Svoboda", "Novotný", "Dvořák", "Černý", "Procházka", "Kučera", "Veselý", "Horák", "Němec",
  "Marek", "Pospíšil", "Pokorný", "Hájek", "Král", "Jelínek", "Růžička", "Beneš", "Fiala", "Sedláček",
  "Doležal", "Zeman", "Kolář", "Navrátil", "Čermák", "Vaněk", "Urban", "Blažek", "Kříž", "Kovář",
  "Bartoš", "Vlček", "Polák", "Musil", "Kopecký", "Šimek", "Konečný", "Malý", "Holub", "Štěpánek",
] as const;

export const ORGANIZATION_KINDS = ["s.r.o.", "a.s.", "z.s.", "v.o.s.", "o.p.s."] as const;

export const CITIES = [
  ["Praha", "110 00"], ["Brno", "602 00"], ["Ostrava", "702 00"], ["Plzeň", "301 00"], ["Liberec", "460 01"],
  ["Olomouc", "779 00"], ["České Budějovice", "370 01"], ["Hradec Králové", "500 02"], ["Pardubice", "530 02"],
  ["Zlín", "760 01"], ["Jihlava", "586 01"], ["Kladno", "272 01"], ["Opava", "746 01"], ["Tábor", "390 01"],
] as const;

export const STREETS = [
  "Husova", "Masarykova", "Palackého", "Nádražní", "Školní", "Zahradní", "Komenského", "Riegrova",
  "Jiráskova", "Tyršova", "Sokolská", "Lidická", "Havlíčkova", "Smetanova", "Nerudova", "Žižkova",
] as const;

export const FOREIGN_COUNTRIES = ["SK", "DE", "AT", "PL", "GB", "US", "NL"] as const;

/** Fictional registrars: handle, name, share of the market (weight). */
export const REGISTRARS = [
  ["REG-ALFANET", "AlfaNet Registrace s.r.o.", 21],
  ["REG-BOHEMIAWEB", "Bohemia Web a.s.", 20],
  ["REG-MORAVAHOST", "Morava Hosting s.r.o.", 13],
  ["REG-VLTAVA", "Vltava Domains s.r.o.", 10],
  ["REG-SNEZKA", "Sněžka Internet s.r.o.", 9],
  ["REG-DOMENOVNA", "Doménovna s.r.o.", 6],
  ["REG-KRALWEB", "Král Web Services s.r.o.", 5],
  ["REG-PODIUM", "Podium Digital a.s.", 4],
  ["REG-LIPA", "Lípa Networks s.r.o.", 3],
  ["REG-DUNAJ", "Dunaj Registrar GmbH", 2],
  ["REG-ORBIS", "Orbis Names Ltd.", 2],
  ["REG-MALYWEB", "Malý Web s.r.o.", 1],
  ["REG-TESTLAB", "Testlab Registrace z.s.", 1],
] as const;

export const CREATION_REASONS = {
  block: [
    "Court order 12 C 345/2026: administrative block until the proceedings end",
    "Police request: domain used in an ongoing fraud investigation",
    "Registrant dispute: block pending arbitration",
    "Identity of the registrant could not be verified",
  ],
  outzone: [
    "CSIRT ticket: phishing site, keep the domain out of the zone",
    "Court order: suspend resolution of the domain",
    "Malware distribution confirmed, removed from zone",
  ],
  inzone: [
    "Registrant paid late; keep in zone for 7 days while the renewal is processed",
    "Keep in zone during registrar transfer dispute",
  ],
  lock: [
    "Registrant requested a transfer lock",
    "Registrant requested a lock of all changes",
    "High-value domain protection agreed with the registrant",
  ],
  renew: ["Renewal suspended pending investigation of the registration"],
  registrantChange: ["Registrant change frozen during ownership dispute"],
  object: ["Handle protected at the holder's request", "Object locked during data verification"],
} as const;

export const CANCELLATION_REASONS = [
  "Court order lifted",
  "Request withdrawn by the registrant",
  "Entered by mistake",
  "Investigation closed without findings",
  "Replaced by a new request",
] as const;
