/**
 * The benchmarks' multipart upload: streams the fields, then the file, to the server (the body is
 * never held in memory whole) and answers its JSON envelope. Used by the rate and DID imports.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/** Streams a multipart upload (fields, then the file under the part name `file`) to the server. */
export function uploadFile<P = { object_id: number }>(
  port: number,
  urlPath: string,
  token: string,
  fields: Record<string, string>,
  file: string,
): Promise<{ success: boolean; payload: P }> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  let head = '';
  for (const [k, v] of Object.entries(fields))
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\nContent-Type: text/csv\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + fs.statSync(file).size + Buffer.byteLength(tail);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': length,
          'x-auth-token': token,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve(JSON.parse(body) as never));
      },
    );
    req.on('error', reject);
    req.write(head);
    const rs = fs.createReadStream(file);
    rs.on('end', () => req.end(tail));
    rs.pipe(req, { end: false });
  });
}
