/** Whether `ip` is allowed by a user's list of IPv4 addresses or CIDR blocks (empty list: anyone). */
export function ipAllowed(allowed: readonly string[], ip: string): boolean {
  if (allowed.length === 0) return true;
  const addr = toInt(ip.replace(/^::ffff:/, ''));
  if (addr === null) return false;
  return allowed.some((entry) => {
    const [base, bitsText] = entry.split('/');
    const b = toInt(base ?? '');
    if (b === null) return false;
    const bits = bitsText === undefined ? 32 : Number(bitsText);
    if (bits === 0) return true;
    const mask = bits === 32 ? 0xffffffff : (~0 << (32 - bits)) >>> 0;
    return (addr & mask) >>> 0 === (b & mask) >>> 0;
  });
}

function toInt(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n >>> 0;
}
