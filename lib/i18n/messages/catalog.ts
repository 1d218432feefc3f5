/**
 * The shape of a language's messages: the English catalogue's keys, every message a string. A
 * translation typed with it fails to compile when it lacks a key or has one too many; that the
 * placeholders match is checked by lib/i18n/messages.test.ts.
 */
export type Catalog<T> = { -readonly [K in keyof T]: T[K] extends string ? string : Catalog<T[K]> };
