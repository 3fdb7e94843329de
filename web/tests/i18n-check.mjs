// The languages' check (issue #39), run by `npm test` before the browser tests:
//  1. every message table (web/src/lang/{en,nl,de}.ts) has exactly the same keys, each message
//     of the same form (text, or plural {one, other}) with the same {parameters} in every
//     language, and no message is empty;
//  2. the server's English texts the client shows (level names and sentences, score categories,
//     tile sets and expansions, from the API fixtures tests/fixtures/api) have a translation in
//     each other language (nlServer, deServer);
//  3. no text for players is left outside the tables: in web/src (the tables aside), a string
//     literal or template with words is an error where it becomes a text node (a child of h(),
//     append/prepend, textContent, toast, confirm) or the value of title, aria-label,
//     placeholder or alt. Such text must come from t() (i18n.ts). A line may opt out with a
//     comment `i18n: not for players` (e.g. the tile gallery's ids).
// Run: node web/tests/i18n-check.mjs
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const webDir = resolve(here, '..');
const repo = resolve(webDir, '..');
const src = join(webDir, 'src');
const errors = [];

// --- 1. the tables --------------------------------------------------------------------------
const bundled = await build({
  stdin: { contents: "export { en } from './lang/en'; export { nl, nlServer } from './lang/nl'; export { de, deServer } from './lang/de';", resolveDir: src, loader: 'ts' },
  bundle: true, format: 'esm', write: false, logLevel: 'silent',
});
const tables = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);
const langs = { en: tables.en, nl: tables.nl, de: tables.de };
const params = (m) => [...new Set([...(typeof m === 'string' ? m : `${m.one} ${m.other}`).matchAll(/\{(\w+)\}/g)].map((x) => x[1]))].sort().join(',');
const form = (m) => (typeof m === 'string' ? 'text' : m && typeof m.one === 'string' && typeof m.other === 'string' ? 'plural' : 'bad');
for (const [lang, table] of Object.entries(langs)) {
  for (const key of Object.keys(tables.en)) {
    if (!(key in table)) { errors.push(`${lang}: no translation of '${key}'`); continue; }
    const m = table[key], e = tables.en[key];
    if (form(m) === 'bad') errors.push(`${lang}: '${key}' is neither a text nor {one, other}`);
    else if (typeof m === 'string' ? !m.trim() : !m.one.trim() || !m.other.trim()) errors.push(`${lang}: '${key}' is empty`);
    // a plural form in English may be a plain text elsewhere only when it has no {n} to count
    if (form(e) === 'plural' && form(m) === 'text' && /\{n\}/.test(m)) errors.push(`${lang}: '${key}' counts {n} but has no plural forms`);
    if (form(m) !== 'bad' && params(m) !== params(e)) errors.push(`${lang}: '${key}' has the parameters {${params(m)}}, English has {${params(e)}}`);
  }
  for (const key of Object.keys(table)) if (!(key in tables.en)) errors.push(`${lang}: '${key}' is not an English key`);
}
const keyCount = Object.keys(tables.en).length;

// --- 2. the server's texts --------------------------------------------------------------------
const fixtures = join(repo, 'tests', 'fixtures', 'api');
const serverTexts = new Set();
if (existsSync(join(fixtures, 'players.json'))) {
  const p = JSON.parse(readFileSync(join(fixtures, 'players.json'), 'utf8')).value;
  for (const l of p.level_details ?? []) { serverTexts.add(l.label); if (l.description) serverTexts.add(l.description); }
  for (const m of [...(p.expansions ?? []), ...(p.tilesets ?? [])]) serverTexts.add(m.label);
}
if (existsSync(join(fixtures, 'tables.json'))) {
  for (const c of JSON.parse(readFileSync(join(fixtures, 'tables.json'), 'utf8')).value.score_categories) serverTexts.add(c.label);
}
for (const [lang, table] of [['nl', tables.nlServer], ['de', tables.deServer]]) {
  for (const text of serverTexts) if (!table[text]) errors.push(`${lang}: the server's text "${text}" has no translation (lang/${lang}.ts, ${lang}Server)`);
  for (const text of Object.keys(table)) if (!table[text].trim()) errors.push(`${lang}: the translation of "${text}" is empty`);
}

// --- 3. no text outside the tables --------------------------------------------------------------
const ATTRS = new Set(['title', 'aria-label', 'placeholder', 'alt', 'ariaLabel']);
const TEXT_CALLS = new Set(['toast', 'confirm', 'alert', 'append', 'prepend', 'replaceChildren']);
// helpers whose argument is a label: iconButton(icon, label), zb(icon, label, ...), link(href, icon, label)
const LABEL_ARG = { iconButton: 1, zb: 1, link: 2 };
const wordy = (text) => /[A-Za-z]{2,}/.test(text);
let scanned = 0;
function literalText(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
  return null;
}
// The literals a value may end up as: both arms of a condition, both sides of + || ??.
function literalsIn(node, out = []) {
  if (!node) return out;
  if (ts.isParenthesizedExpression(node)) return literalsIn(node.expression, out);
  if (ts.isConditionalExpression(node)) { literalsIn(node.whenTrue, out); literalsIn(node.whenFalse, out); return out; }
  if (ts.isBinaryExpression(node) && [ts.SyntaxKind.PlusToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(node.operatorToken.kind)) {
    literalsIn(node.left, out); literalsIn(node.right, out); return out;
  }
  if (ts.isArrayLiteralExpression(node)) { node.elements.forEach((e) => literalsIn(e, out)); return out; }
  const text = literalText(node);
  if (text !== null && wordy(text)) out.push(node);
  return out;
}
for (const file of readdirSync(src).filter((f) => f.endsWith('.ts'))) {
  const path = join(src, file);
  const text = readFileSync(path, 'utf8');
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const lines = text.split('\n');
  scanned++;
  const report = (node, where) => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    if (/i18n: not for players/.test(lines[line] ?? '') || /i18n: not for players/.test(lines[line - 1] ?? '')) return;
    errors.push(`web/src/${file}:${line + 1}: text for players outside the message tables (${where}): ${node.getText(sf).slice(0, 80)}`);
  };
  const visit = (node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
      if (name === 'h') node.arguments.slice(2).forEach((a) => literalsIn(a).forEach((l) => report(l, 'a child of h()')));
      else if (TEXT_CALLS.has(name)) node.arguments.forEach((a) => literalsIn(a).forEach((l) => report(l, `${name}()`)));
      else if (name === 'setAttribute' && node.arguments.length === 2) {
        const attr = literalText(node.arguments[0]);
        if (attr && ATTRS.has(attr)) literalsIn(node.arguments[1]).forEach((l) => report(l, `the ${attr} attribute`));
      } else if (name in LABEL_ARG) literalsIn(node.arguments[LABEL_ARG[name]]).forEach((l) => report(l, `the label of ${name}()`));
    }
    if (ts.isPropertyAssignment(node)) {
      const key = ts.isIdentifier(node.name) ? node.name.text : ts.isStringLiteral(node.name) ? node.name.text : '';
      if (ATTRS.has(key)) literalsIn(node.initializer).forEach((l) => report(l, `the ${key} attribute`));
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left) &&
        ['textContent', 'innerText', 'title', 'placeholder', 'ariaLabel'].includes(node.left.name.text))
      literalsIn(node.right).forEach((l) => report(l, node.left.name.text));
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

if (errors.length) {
  console.error(`i18n: ${errors.length} problem(s):\n  ${errors.join('\n  ')}`);
  process.exit(1);
}
console.log(`i18n: ${keyCount} keys in en, nl and de with the same parameters; ${serverTexts.size} server texts translated; ${scanned} files of web/src without text outside the tables`);
