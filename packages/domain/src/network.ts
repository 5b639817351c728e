/**
 * Source-address matching of ingress trunk hosts.
 *
 * IPv4 hosts match by network: the source address and the host address agree on the first
 * `netmask` bits (null = 32). A host with a port matches only that source port; without a port
 * it matches any. Other addresses (IPv6, names) match as exact, case-insensitive text.
 */

/** The IPv4 address as an unsigned 32-bit integer, or -1 when the text is not dotted IPv4. */
export function parseIpv4(text: string): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else if (c >= 48 && c <= 57) {
      octet = octet * 10 + (c - 48);
      digits++;
      if (octet > 255 || digits > 3) return -1;
    } else {
      return -1;
    }
  }
  if (dots !== 3 || digits === 0) return -1;
  return value * 256 + octet;
}

/** The network mask of a prefix length as an unsigned 32-bit integer. */
export function maskOf(bits: number): number {
  if (!Number.isInteger(bits) || bits < 0 || bits > 32) {
    throw new RangeError(`netmask must be 0..32 bits, got ${bits}`);
  }
  return bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
}

/** Whether an IPv4 source address lies in host/bits. */
export function ipv4InNetwork(source: string, host: string, bits: number): boolean {
  const s = parseIpv4(source);
  const h = parseIpv4(host);
  if (s < 0 || h < 0) return false;
  const mask = maskOf(bits);
  return (s & mask) >>> 0 === (h & mask) >>> 0;
}

export interface HostMatch<T> {
  readonly owner: T;
  readonly bits: number;
  readonly port: number | null;
}

/**
 * Hosts of many owners (trunks), indexed by prefix length and network for lookups that cost one
 * map read per distinct prefix length in use.
 */
export class HostIndex<T> {
  private readonly byBits = new Map<number, Map<number, HostMatch<T>[]>>();
  private readonly byText = new Map<string, HostMatch<T>[]>();
  private lengths: number[] = [];

  add(owner: T, ip: string, port: number | null | undefined, netmask: number | null | undefined): void {
    const address = parseIpv4(ip.trim());
    const entry: HostMatch<T> = { owner, bits: netmask ?? 32, port: port ?? null };
    if (address < 0) {
      push(this.byText, ip.trim().toLowerCase(), { ...entry, bits: 128 });
      return;
    }
    const mask = maskOf(entry.bits);
    let networks = this.byBits.get(entry.bits);
    if (!networks) {
      networks = new Map();
      this.byBits.set(entry.bits, networks);
      this.lengths = [...this.byBits.keys()].sort((a, b) => b - a);
    }
    push(networks, (address & mask) >>> 0, entry);
  }

  /**
   * Every host matching the source address and port, most specific network first. A new list
   * each call: emptying a shared one (length = 0) is a runtime call, dearer than a small array.
   */
  collect(sourceIp: string, sourcePort: number | null | undefined): HostMatch<T>[] {
    const out: HostMatch<T>[] = [];
    const address = parseIpv4(sourceIp);
    if (address < 0) {
      collectPorts(this.byText.get(sourceIp.trim().toLowerCase()), sourcePort, out);
      return out;
    }
    for (const bits of this.lengths) {
      const networks = this.byBits.get(bits) as Map<number, HostMatch<T>[]>;
      collectPorts(networks.get((address & (MASKS[bits] as number)) >>> 0), sourcePort, out);
    }
    return out;
  }
}

const MASKS: readonly number[] = Array.from({ length: 33 }, (_, bits) => maskOf(bits));

function collectPorts<T>(
  entries: HostMatch<T>[] | undefined,
  sourcePort: number | null | undefined,
  out: HostMatch<T>[],
): void {
  if (entries === undefined) return;
  for (const entry of entries) {
    if (entry.port === null || entry.port === sourcePort) out.push(entry);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
