/**
 * Czech words people build passwords on, for the password policy (lib/auth/password-policy.ts):
 * common words, first names, surnames, places, teams and the like, a few hundred, roughly most
 * common first (zxcvbn ranks earlier words as likelier). Written with diacritics; the policy adds
 * each word's plain-letter form (heslo, laska, zluty…). Kept here, not as a dependency.
 */
const WORDS = `
heslo hesla ahoj ahojky láska laska miluji miluju milacek miláček srdicko srdíčko zlato zlatíčko kocicka kočička
kočka kocka pejsek pes pesan kotě kote myska myška medvídek medved medvěd zajíček zajic zajíc liška vlk lev tygr
sluníčko slunce mesic měsíc hvězda hvezda nebe moře more hora hory les strom kvetina květina ruze růže tulipán
voda ohen oheň zeme země vzduch vitr vítr dest déšť snih sníh led mraz teplo zima jaro leto léto podzim
domov doma dum dům byt chata chalupa zahrada auto kolo vlak letadlo lod loď škola skola práce prace firma
pocitac počítač telefon mobil internet síť sit klic klíč tajne tajné tajny tajný tajemstvi tajemství soukrome
pivo vino víno kafe kava káva caj čaj rum slivovice becherovka pilsner plzen plzeň budvar kozel gambrinus
svoboda pravda laska vira víra nadeje naděje stesti štěstí zdravi zdraví rodina maminka mama máma tata táta tatínek
babicka babička dedecek dědeček sestra bratr syn dcera deti děti kamarad kamarád pritel přítel pritelkyne
ano ne dobry dobrý dobre dobře spatny špatný velky velký maly malý novy nový stary starý krasny krásný
modry modrý cerveny červený zeleny zelený zluty žlutý cerny černý bily bílý sedy šedý ruzovy růžový
jedna dva tri tři ctyri čtyři pet pět sest šest sedm osm devet devět deset sto tisic tisíc milion
pondeli pondělí utery úterý streda středa ctvrtek čtvrtek patek pátek sobota nedele neděle vikend víkend
leden unor únor brezen březen duben kveten květen cerven červen cervenec červenec srpen zari září rijen říjen
listopad prosinec vanoce vánoce velikonoce silvestr narozeniny svatek svátek dovolena dovolená prazdniny prázdniny
praha brno ostrava plzen olomouc liberec budejovice budějovice hradec pardubice zlin zlín jihlava kladno most
opava karvina karviná teplice decin děčín chomutov jablonec prostejov prostějov prerov přerov tabor tábor pisek
písek znojmo kolin kolín trebic třebíč cheb trutnov vsetin vsetín krumlov karlovy vary lipno snezka sněžka
vltava labe morava dunaj tatry sumava šumava krkonose krkonoše beskydy jeseniky jeseníky cechy čechy slezsko
cesko česko cechy ceska česká cesky český republika ceskarepublika čr cr slovensko bratislava evropa
sparta slavia banik baník bohemians plzen kometa hokej fotbal tenis sport jagr jágr nedved nedvěd cech čech
jan jana petr petra pavel pavla jiri jiří josef tomas tomáš martin martina jaroslav jaroslava miroslav miroslava
zdenek zdeněk vaclav václav michal michaela karel karla milan milana frantisek františek lukas lukáš jakub
ondrej ondřej david vojtech vojtěch filip adam matej matěj stanislav vladimir vladimír ladislav roman radek
marek daniel daniela lenka eva hana anna kateřina katerina lucie veronika tereza marie alena ivana jitka
monika zuzana barbora klara klára kristyna kristýna adela adéla natalie natálie eliska eliška anezka anežka
vera věra jarmila ludmila helena marketa markéta simona dagmar irena renata jana milena olga blanka sarka šárka
libor libuse libuše bohumil bozena božena jindrich jindřich kamil vit vít radim ales aleš patrik dominik
novak novák novakova nováková svoboda svobodova svobodová novotny novotný novotna novotná dvorak dvořák
dvorakova dvořáková cerny černý cerna černá prochazka procházka prochazkova procházková kucera kučera
vesely veselý horak horák nemec němec marek pokorny pokorný pospisil pospíšil hajek hájek jelinek jelínek
kral král ruzicka růžička benes beneš fiala sedlacek sedláček dolezal doležal zeman kolar kolář navratil
navrátil cermak čermák urban vanek vaněk blazek blažek kriz kříž kovar kovář bartos bartoš vlcek vlček
polak polák kopecky kopecký konecny konečný maly malý holub stastny šťastný simek šimek kratochvil kratochvíl
havel masaryk komensky komenský karel ctvrty čtvrtý palacky palacký smetana dvorak janacek janáček cimrman
krtek krtecek krteček rumcajs manka maxipes fik fík bob bobek rakosnicek rákosníček pat mat spejbl hurvinek hurvínek
vecernicek večerníček pohadka pohádka princezna princ kral král kralovna královna drak rytir rytíř
skoda škoda tatra zetor jawa octavia fabia felicia favorit trabant
uzivatel uživatel spravce správce administrator spravca prihlaseni přihlášení vstup pristup přístup
databaze databáze system systém server sluzba služba uzivatele
`;

/** The words, most common first, each once. */
export const CZECH_WORDS: readonly string[] = [...new Set(WORDS.split(/\s+/).filter((w) => w.length >= 2))];
