// Bundles the client into dist/: app.js (esbuild; English only), lang/nl.json and lang/de.json (the
// other languages' tables, loaded by the client only in those languages: src/i18n.ts loadLang),
// index.html and style.css copied as they are.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
mkdirSync(dist, { recursive: true });
await build({
  entryPoints: [join(here, 'src/main.ts')],
  bundle: true,
  format: 'esm',
  target: 'es2020',
  minify: true,
  sourcemap: true,
  outfile: join(dist, 'app.js'),
  logLevel: 'warning',
});
// the Dutch and German tables as JSON (the TypeScript tables are the source, type-checked by tsc)
const langs = await build({
  stdin: { contents: "export { nl, nlServer } from './lang/nl'; export { de, deServer } from './lang/de';", resolveDir: join(here, 'src'), loader: 'ts' },
  bundle: true, format: 'esm', write: false, logLevel: 'warning',
});
const tables = await import(`data:text/javascript;base64,${Buffer.from(langs.outputFiles[0].text).toString('base64')}`);
mkdirSync(join(dist, 'lang'), { recursive: true });
writeFileSync(join(dist, 'lang', 'nl.json'), JSON.stringify({ table: tables.nl, server: tables.nlServer }));
writeFileSync(join(dist, 'lang', 'de.json'), JSON.stringify({ table: tables.de, server: tables.deServer }));
copyFileSync(join(here, 'index.html'), join(dist, 'index.html'));
copyFileSync(join(here, 'src/style.css'), join(dist, 'style.css'));
console.log('web: built dist/');
