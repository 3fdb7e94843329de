// Bundles the client into dist/: app.js (esbuild), index.html and style.css copied as they are.
import { build } from 'esbuild';
import { mkdirSync, copyFileSync } from 'node:fs';
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
copyFileSync(join(here, 'index.html'), join(dist, 'index.html'));
copyFileSync(join(here, 'src/style.css'), join(dist, 'style.css'));
console.log('web: built dist/');
