/**
 * Uploads a rate file to POST /api/rate/rate_table/:id/import from its own process (the multipart
 * body is not built in the server's process), prints the answer.
 *   usage: upload.ts URL TOKEN FILE [DUPLICATE_MODE]
 */
import fs from 'node:fs';
import path from 'node:path';

const [url, token, file, mode] = process.argv.slice(2);
if (!url || !token || !file) throw new Error('usage: upload.ts URL TOKEN FILE [DUPLICATE_MODE]');
const form = new FormData();
form.append('duplicate_mode', mode ?? 'skip');
form.append('file', await fs.openAsBlob(file), path.basename(file));
const res = await fetch(url, { method: 'POST', headers: { 'x-auth-token': token }, body: form });
process.stdout.write(await res.text());
