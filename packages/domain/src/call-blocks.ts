/**
 * Two lists that refuse a call before anything else about it is looked at:
 *
 * - Inbound media IP blocking: IPv4 addresses and CIDR ranges whose traffic is refused. A call whose
 *   source address lies in an entry that has not expired (expires_at > call time, or no expiry) is
 *   rejected before the ingress trunk is even identified: 403 source_ip_blocked.
 * - STIOCN block list: STIR/SHAKEN originating carriers, by OCN (the 4-character Operating Company
 *   Number of the certificate that signed the call) or by origid (the PASSporT's origination
 *   identifier, a UUID). A call naming a listed OCN or origid is rejected: 403 ocn_blocked. OCNs
 *   compare upper-case, origids lower-case.
 */
import { HostIndex } from './network';

export interface MediaIpBlockConfig {
  readonly block_id?: number;
  /** IPv4 address (the network address of a range). */
  readonly ip: string;
  /** Prefix length 0..32; null = 32 (one address). */
  readonly netmask?: number | null;
  /** Epoch ms; null = never expires. */
  readonly expires_at?: number | null;
  readonly note?: string;
}

export type OcnBlockKind = 'ocn' | 'origid';

export interface OcnBlockConfig {
  readonly block_id?: number;
  readonly kind: OcnBlockKind;
  readonly value: string;
  readonly note?: string;
}

export class MediaIpBlockList {
  private readonly index = new HostIndex<MediaIpBlockConfig>();

  private constructor(readonly size: number) {}

  static build(entries: readonly MediaIpBlockConfig[]): MediaIpBlockList {
    const list = new MediaIpBlockList(entries.length);
    for (const e of entries) list.index.add(e, e.ip, null, e.netmask ?? 32);
    return list;
  }

  /** The most specific entry in force at `atMs` that covers the address, if any. */
  find(sourceIp: string, atMs: number): MediaIpBlockConfig | undefined {
    if (this.size === 0) return undefined;
    for (const m of this.index.collect(sourceIp, null)) {
      const exp = m.owner.expires_at;
      if (exp == null || exp > atMs) return m.owner;
    }
    return undefined;
  }
}

export const normalizeOcn = (v: string): string => v.trim().toUpperCase();
export const normalizeOrigid = (v: string): string => v.trim().toLowerCase();

export class OcnBlockList {
  private constructor(
    private readonly ocns: ReadonlyMap<string, OcnBlockConfig>,
    private readonly origids: ReadonlyMap<string, OcnBlockConfig>,
    readonly size: number,
  ) {}

  static build(entries: readonly OcnBlockConfig[]): OcnBlockList {
    const ocns = new Map<string, OcnBlockConfig>();
    const origids = new Map<string, OcnBlockConfig>();
    for (const e of entries) {
      if (e.kind === 'ocn') ocns.set(normalizeOcn(e.value), e);
      else origids.set(normalizeOrigid(e.value), e);
    }
    return new OcnBlockList(ocns, origids, entries.length);
  }

  /** The entry listing the call's OCN or origid, if any. */
  find(ocn: string | null | undefined, origid: string | null | undefined): OcnBlockConfig | undefined {
    if (this.size === 0) return undefined;
    return (
      (ocn ? this.ocns.get(normalizeOcn(ocn)) : undefined) ??
      (origid ? this.origids.get(normalizeOrigid(origid)) : undefined)
    );
  }
}
