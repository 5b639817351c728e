/**
 * Step 1 of the call path: which ingress trunk (and which of its products) a call arrives on.
 *
 * Candidates are the ingress trunks with a host matching the source IP (within the host's
 * netmask) and port (when the host sets one), and, on each, the products whose tech prefix
 * starts the DNIS. The winner is, in this order of preference:
 *   1. an active trunk (an inactive one wins only when no active trunk matches; the call is then
 *      refused as coming from an inactive trunk rather than an unknown one);
 *   2. the longest tech prefix;
 *   3. the most specific host: longer netmask, then a host with a port over one without;
 *   4. the lowest trunk id (so the answer never depends on load order).
 */
import type { HostMatch } from './network';
import type { RoutingSnapshot, IngressProduct, SnapshotTrunk } from './snapshot-types';

export interface IngressMatch {
  readonly trunk: SnapshotTrunk;
  readonly product: IngressProduct;
  readonly netmask: number;
  readonly port: number | null;
}

export interface IngressSearch {
  readonly match: IngressMatch | null;
  /** Trunks whose host matched but none of whose tech prefixes starts the DNIS. */
  readonly hostOnly: readonly SnapshotTrunk[];
}

function better(
  trunk: SnapshotTrunk,
  product: IngressProduct,
  bits: number,
  port: number | null,
  best: IngressMatch | null,
): boolean {
  if (best === null) return true;
  if (trunk.is_active !== best.trunk.is_active) return trunk.is_active;
  if (product.tech_prefix.length !== best.product.tech_prefix.length) {
    return product.tech_prefix.length > best.product.tech_prefix.length;
  }
  if (bits !== best.netmask) return bits > best.netmask;
  if ((port !== null) !== (best.port !== null)) return port !== null;
  return trunk.trunk_id < best.trunk.trunk_id;
}

const NONE: readonly SnapshotTrunk[] = [];

export function findIngress(
  snapshot: RoutingSnapshot,
  sourceIp: string,
  sourcePort: number | null | undefined,
  dnis: string,
  collectHostOnly: boolean,
): IngressSearch {
  const hosts = snapshot.ingress_hosts.collect(sourceIp, sourcePort);
  let best: IngressMatch | null = null;
  let hostOnly: SnapshotTrunk[] | null = null;
  for (let h = 0; h < hosts.length; h++) {
    const host = hosts[h] as HostMatch<SnapshotTrunk>;
    const trunk = host.owner;
    let anyProduct = false;
    // Products are sorted longest tech prefix first: the first that fits is this trunk's best.
    for (const product of trunk.products) {
      if (!dnis.startsWith(product.tech_prefix)) continue;
      anyProduct = true;
      if (better(trunk, product, host.bits, host.port, best)) {
        best = { trunk, product, netmask: host.bits, port: host.port };
      }
      break;
    }
    if (!anyProduct && collectHostOnly) {
      hostOnly ??= [];
      if (!hostOnly.includes(trunk)) hostOnly.push(trunk);
    }
  }
  return { match: best, hostOnly: hostOnly ?? NONE };
}
