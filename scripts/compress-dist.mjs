// Writes .br and .gz next to every text asset of the web build; the server sends them to browsers
// that accept them (@fastify/static preCompressed).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
const walk = (dir) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
let n = 0;
for (const file of walk(dist)) {
  if (!/\.(js|css|html|svg|json)$/.test(file) || file.includes('.vite')) continue;
  const data = fs.readFileSync(file);
  fs.writeFileSync(
    file + '.br',
    zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  fs.writeFileSync(file + '.gz', zlib.gzipSync(data, { level: 9 }));
  n++;
}
console.log(`compressed ${n} files in ${path.relative(process.cwd(), dist)}`);
