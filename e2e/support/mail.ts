import fs from 'node:fs';

/**
 * Mail the server sent during the run. global-setup.ts runs an SMTP server that appends each message
 * to the JSON file named by TANDEM_E2E_MAIL_FILE; specs read it with these helpers.
 */
export interface CapturedMail {
  /** Envelope recipients (lower case). */
  to: string[];
  from: string;
  subject: string;
  /** The text body, decoded. */
  text: string;
  /** When the capture server received it (ISO). */
  receivedAt: string;
}

export function mailFile(): string {
  const file = process.env.TANDEM_E2E_MAIL_FILE;
  if (!file)
    throw new Error('TANDEM_E2E_MAIL_FILE is not set: run the specs through e2e/playwright.config.ts');
  return file;
}

export function readMails(): CapturedMail[] {
  const file = mailFile();
  if (!fs.existsSync(file)) return [];
  return JSON.parse(fs.readFileSync(file, 'utf8')) as CapturedMail[];
}

/**
 * The newest mail to `address`, waiting up to `timeoutMs` for one to arrive. With `after`, only
 * mail received after that moment counts (take `new Date()` before the action that sends it).
 */
export async function latestMailTo(
  address: string,
  opts: { timeoutMs?: number; after?: Date; subject?: RegExp } = {},
): Promise<CapturedMail> {
  const want = address.toLowerCase();
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  for (;;) {
    const match = readMails()
      .filter((m) => m.to.includes(want))
      .filter((m) => !opts.after || new Date(m.receivedAt) >= opts.after)
      .filter((m) => !opts.subject || opts.subject.test(m.subject))
      .at(-1);
    if (match) return match;
    if (Date.now() > deadline)
      throw new Error(`No mail to ${address} arrived within ${opts.timeoutMs ?? 15_000} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The first http(s) link in a mail's text (reset links, confirmation links). */
export function linkIn(mail: CapturedMail): string {
  const m = /https?:\/\/\S+/.exec(mail.text);
  if (!m) throw new Error(`No link in mail "${mail.subject}"`);
  return m[0];
}

/** Parses the parts of a raw RFC 5322 message the specs need: From, Subject and the text body. */
export function parseMail(raw: string): { from: string; subject: string; text: string } {
  const { headers, body } = splitMessage(raw);
  return {
    from: decodeWords(headers['from'] ?? ''),
    subject: decodeWords(headers['subject'] ?? ''),
    text: textOf(headers, body),
  };
}

function splitMessage(raw: string): { headers: Record<string, string>; body: string } {
  const normal = raw.replace(/\r\n/g, '\n');
  const cut = normal.indexOf('\n\n');
  const head = cut < 0 ? normal : normal.slice(0, cut);
  const body = cut < 0 ? '' : normal.slice(cut + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] ??= line.slice(i + 1).trim();
  }
  return { headers, body };
}

function textOf(headers: Record<string, string>, body: string): string {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const parts = body.split(`--${boundary}`).slice(1, -1);
    const parsed = parts.map((p) => splitMessage(p.replace(/^\n/, '')));
    const plain =
      parsed.find((p) => /^text\/plain/i.test(p.headers['content-type'] ?? 'text/plain')) ?? parsed[0];
    return plain ? textOf(plain.headers, plain.body) : '';
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body.replace(/\n$/, '');
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const soft = s.replace(/=\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8').replace(/\n$/, '');
}

/** RFC 2047 encoded words (=?UTF-8?B?...?= and =?UTF-8?Q?...?=). */
function decodeWords(s: string): string {
  return s
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}
