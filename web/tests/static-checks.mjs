// Static checks of the web client's source (issue #36, done when: "The web client has no
// mergeLog, no WHEEL_WIDE, no hand-written points, and no reads of .meeple, .ret or .return"),
// run by `npm test` before the browser tests (node web/tests/static-checks.mjs):
//  1. the client re-derives nothing the server sends: no identifier mergeLog, WHEEL_WIDE, wheelLine
//     or stageOf anywhere in web/src (the one ordered event log comes from the server);
//  2. no old move field: no read of .meeple, .ret, .rets or .return (property access, ['meeple'],
//     destructuring { meeple }) and no object key meeple, ret or return (a move body with the old
//     names: the server refuses them);
//  3. no hand-written fruit points: the fruit messages of every language (fruit.*, help.fruit-trees.*,
//     ev.harvest, ev.sell, ev.fruit*, move.harvest/sell/stack, board.harvest) have no digit outside
//     their {parameters}, every number coming from the engine's tables (GET /api/tables, vocab.ts);
//     and no code in web/src spells one of the engine's fruit tables (the token values, the sale
//     points, read from tests/fixtures/api/tables.json) as a number list or a text ("3/6/10/15",
//     "2–5"). Every fruit number has an engine table, a held token's points at the end included
//     (fruit_held_token_points): no message is exempt.
// Each check first runs on a sample with the faults it looks for, so it cannot pass by finding
// nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const webDir = resolve(here, '..');
const repo = resolve(webDir, '..');
const src = join(webDir, 'src');
const errors = [];

const GONE = new Set(['mergeLog', 'WHEEL_WIDE', 'wheelLine', 'stageOf']);
const OLD_FIELDS = new Set(['meeple', 'ret', 'rets', 'return']);
const FRUIT_KEY = /^(fruit\.|help\.fruit-trees\.|ev\.(harvest|sell|fruit)|move\.(harvest|sell|stack)|board\.harvest)/;

// The engine's fruit tables, as the server sends them.
const tablesFixture = JSON.parse(readFileSync(join(repo, 'tests', 'fixtures', 'api', 'tables.json'), 'utf8')).value;
const tokenValues = tablesFixture.fruit_token_values;
const salePoints = tablesFixture.fruit_sale_points;
const numberLists = [tokenValues, [...tokenValues].sort((a, b) => a - b), salePoints, salePoints.slice(1)].map((l) => l.join(','));
const lo = Math.min(...tokenValues), hi = Math.max(...tokenValues);
// as a text: the sale points "3/6/10/15", the token values "5/4/3/2", a harvest's range "2–5",
// "2 - 5", "2 to 5" (not inside other numbers, such as an icon's path data "1.2-5.1")
const spelled = [salePoints.slice(1).join('/'), tokenValues.join('/'), `${lo}–${hi}`, `${lo} - ${hi}`, `${lo} to ${hi}`].map((s) => ({
  s, re: new RegExp(`(?<![\\d.])${s.replace(/[/.]/g, '\\$&')}(?![\\d.])`),
}));

// Checks 1, 2 and 3 (code) on one source text; returns the problems found.
function checkSource(file, text) {
  const found = [];
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const at = (node) => `${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
  const nameOf = (n) => (n && (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isPrivateIdentifier(n)) ? n.text : null);
  const visit = (node) => {
    if (ts.isIdentifier(node) && GONE.has(node.text)) found.push(`${at(node)}: '${node.text}' is gone (issue #36: the server sends the one ordered event log)`);
    if (ts.isPropertyAccessExpression(node) && OLD_FIELDS.has(node.name.text))
      found.push(`${at(node)}: reads '.${node.name.text}' (the move object says follower and take_back)`);
    if (ts.isElementAccessExpression(node) && OLD_FIELDS.has(nameOf(node.argumentExpression)))
      found.push(`${at(node)}: reads ['${nameOf(node.argumentExpression)}'] (the move object says follower and take_back)`);
    if (ts.isBindingElement(node) && OLD_FIELDS.has(nameOf(node.propertyName ?? node.name)))
      found.push(`${at(node)}: destructures '${nameOf(node.propertyName ?? node.name)}' (the move object says follower and take_back)`);
    if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && OLD_FIELDS.has(nameOf(node.name)))
      found.push(`${at(node)}: an object with the key '${nameOf(node.name)}' (the move object says follower and take_back)`);
    if (ts.isPropertySignature(node) && OLD_FIELDS.has(nameOf(node.name)))
      found.push(`${at(node)}: a type with the field '${nameOf(node.name)}' (the move object says follower and take_back)`);
    if (ts.isArrayLiteralExpression(node) && node.elements.length >= 3 && node.elements.every((e) => ts.isNumericLiteral(e)) &&
        numberLists.includes(node.elements.map((e) => Number(e.text)).join(',')))
      found.push(`${at(node)}: a copy of the engine's fruit table [${node.elements.map((e) => e.text).join(', ')}] (read it from GET /api/tables: vocab.ts)`);
    const lit = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text
      : ts.isTemplateExpression(node) ? [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('') : null;
    if (lit !== null) for (const { s, re } of spelled) if (re.test(lit)) found.push(`${at(node)}: the text spells the engine's fruit points "${s}" (a parameter from vocab.ts's fruitPoints instead)`);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

// Check 3 on the message tables: the fruit messages' digits outside {parameters}.
function checkMessages(lang, table) {
  const found = [];
  for (const [key, m] of Object.entries(table)) {
    if (!FRUIT_KEY.test(key)) continue;
    for (const text of typeof m === 'string' ? [m] : [m.one, m.other]) {
      const digits = text.replace(/\{\w+\}/g, '').match(/\d+/g);
      if (digits) found.push(`lang/${lang}.ts: '${key}' writes the number(s) ${digits.join(', ')} by hand ("${text}"): a parameter from the engine's tables instead (vocab.ts)`);
    }
  }
  return found;
}

// --- the checks find what they look for --------------------------------------------------------
const sample = `
  const log = mergeLog(a, b); const W = WHEEL_WIDE;
  const s = mv.meeple ?? mv.ret ?? mv.return; const t = mv['meeple'];
  const { meeple, return: r } = mv;
  post({ x: 1, meeple: 'N', return: { x: 0 } });
  const pts = [0, 3, 6, 10, 15]; const vals = [5, 4, 3, 2];
  const help = 'sell for 3/6/10/15 points'; const h2 = \`worth 2–5\`;
  const fine = mv.follower ?? mv.take_back; const n = [1, 2, 3];`;
const sampleFound = checkSource('sample.ts', sample);
const want = ['mergeLog', 'WHEEL_WIDE', "'.meeple'", "'.ret'", "'.return'", "['meeple']", "destructures 'meeple'", "destructures 'return'",
  "key 'meeple'", "key 'return'", '[0, 3, 6, 10, 15]', '[5, 4, 3, 2]', '"3/6/10/15"', '"2–5"'];
for (const w of want) if (!sampleFound.some((f) => f.includes(w))) errors.push(`static-checks: the check does not find ${w} in its sample`);
if (sampleFound.length !== want.length) errors.push(`static-checks: ${sampleFound.length} finds in the sample, ${want.length} expected:\n    ${sampleFound.join('\n    ')}`);
const msgFound = checkMessages('sample', { 'fruit.x': 'worth 2 to 5', 'fruit.y': { one: '{n} token', other: '{n} tokens' }, 'help.fruit-trees.1': 'a stack of 4', 'turn.x': '3 points' });
if (msgFound.length !== 2) errors.push(`static-checks: the message check finds ${msgFound.length} hand-written numbers in its sample, 2 expected`);

// --- web/src -------------------------------------------------------------------------------------
let files = 0;
for (const file of readdirSync(src).filter((f) => f.endsWith('.ts')).sort()) {
  errors.push(...checkSource(`web/src/${file}`, readFileSync(join(src, file), 'utf8')));
  files++;
}
for (const dir of readdirSync(src, { withFileTypes: true }).filter((d) => d.isDirectory())) {
  for (const file of readdirSync(join(src, dir.name)).filter((f) => f.endsWith('.ts')).sort()) {
    errors.push(...checkSource(`web/src/${dir.name}/${file}`, readFileSync(join(src, dir.name, file), 'utf8')));
    files++;
  }
}
const bundled = await build({
  stdin: { contents: "export { en } from './lang/en'; export { nl } from './lang/nl'; export { de } from './lang/de';", resolveDir: src, loader: 'ts' },
  bundle: true, format: 'esm', write: false, logLevel: 'silent',
});
const tables = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);
let fruitMessages = 0;
for (const lang of ['en', 'nl', 'de']) {
  errors.push(...checkMessages(lang, tables[lang]));
  fruitMessages += Object.keys(tables[lang]).filter((k) => FRUIT_KEY.test(k)).length;
}

if (errors.length) {
  console.error(`static-checks: ${errors.length} problem(s):\n  ${errors.join('\n  ')}`);
  process.exit(1);
}
console.log(`static-checks: ${files} files of web/src without ${[...GONE].join('/')}, reads or keys ${[...OLD_FIELDS].join('/')}, or copies of the fruit tables; ` +
  `${fruitMessages} fruit messages in en, nl and de without hand-written numbers`);
