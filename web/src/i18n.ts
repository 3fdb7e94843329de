// The client's languages (English, Dutch, German): every text a player reads comes from one
// message table per language (web/src/lang/*.ts), by key, with {parameters} and plural forms
// ({one, other}, chosen by the parameter `n` with the language's plural rules). The language is
// the one chosen in the lobby (remembered in localStorage), else the first of the browser's
// languages the client has, else English. `npm test` checks that every key has every
// language and that no text for players is left outside the tables (web/tests/i18n-check.mjs).
import { en, type Msg } from './lang/en';

export type Key = keyof typeof en;
export type Params = Record<string, string | number>;
export const LANGS = ['en', 'nl', 'de'] as const;
export type Lang = (typeof LANGS)[number];
// Each language's name in that language (the lobby's switch).
export const LANG_NAMES: Record<Lang, string> = { en: 'English', nl: 'Nederlands', de: 'Deutsch' };

// English is in the script; Dutch and German are loaded (a file of their own) only by who needs
// them, before the first page is drawn (loadLang).
const TABLES: Partial<Record<Lang, Record<Key, Msg>>> = { en };
// Texts the server sends in English (level names and sentences, score categories, tile sets and
// expansions), translated by their English text; English shows the server's own text.
const SERVER: Partial<Record<Lang, Record<string, string>>> = { en: {} };
const LANG_KEY = 'carc.lang';

function isLang(x: string | null | undefined): x is Lang {
  return !!x && (LANGS as readonly string[]).includes(x);
}

// The browser's languages in order ("de-AT" counts as "de"), the first the client has.
export function fromBrowser(languages: readonly string[]): Lang {
  for (const l of languages) {
    const base = l.toLowerCase().split('-')[0];
    if (isLang(base)) return base;
  }
  return 'en';
}

function initial(): Lang {
  try {
    const saved = localStorage.getItem(LANG_KEY);
    if (isLang(saved)) return saved;
  } catch {
    /* private mode: the browser's language */
  }
  return fromBrowser(typeof navigator !== 'undefined' ? navigator.languages ?? [navigator.language] : []);
}

let lang: Lang = initial();
let plural = new Intl.PluralRules(lang);
if (typeof document !== 'undefined') document.documentElement.lang = lang;

// Loads the current language's table (once; web/build.mjs writes dist/lang/{nl,de}.json from
// lang/*.ts); until it is in, or when it cannot be loaded, texts are English.
export async function loadLang(): Promise<void> {
  if (TABLES[lang]) return;
  try {
    const r = await fetch(`lang/${lang}.json`);
    if (!r.ok) return;
    const m = (await r.json()) as { table: Record<Key, Msg>; server: Record<string, string> };
    TABLES[lang] = m.table;
    SERVER[lang] = m.server;
  } catch {
    /* offline or not built: English */
  }
}

export function currentLang(): Lang {
  return lang;
}

// Switches the language (remembered); the caller draws the page again.
export function setLang(l: Lang) {
  lang = l;
  plural = new Intl.PluralRules(l);
  document.documentElement.lang = l;
  try {
    localStorage.setItem(LANG_KEY, l);
  } catch {
    /* not remembered */
  }
}

function pick(m: Msg, p: Params): string {
  if (typeof m === 'string') return m;
  const n = Number(p.n ?? 0);
  return plural.select(n) === 'one' ? m.one : m.other;
}

// The message `key` in the current language with its {parameters} filled in.
export function t(key: Key, p: Params = {}): string {
  const m = TABLES[lang]?.[key] ?? en[key];
  return pick(m, p).replace(/\{(\w+)\}/g, (all, k: string) => (k in p ? String(p[k]) : all));
}

// The same with elements among the parameters (an icon in a sentence): a list for h().
export function tParts(key: Key, p: Record<string, string | number | Node>): (string | Node)[] {
  const text = pick(TABLES[lang]?.[key] ?? en[key], p as Params);
  const out: (string | Node)[] = [];
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    out.push(text.slice(last, m.index));
    const v = p[m[1]];
    out.push(v === undefined ? m[0] : typeof v === 'object' ? v : String(v));
    last = (m.index ?? 0) + m[0].length;
  }
  out.push(text.slice(last));
  return out.filter((x) => x !== '');
}

// A text the server sent in English, in the current language (as sent when there is no
// translation of it).
export function serverText(text: string): string {
  return SERVER[lang]?.[text] ?? text;
}

// "Ann and Ben", "Ann, Ben and Cy".
export function listWords(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return t('list.and', { a: items.slice(0, -1).join(', '), b: items[items.length - 1] });
}
