/**
 * Rerate (issue 10 section 3): what a CDR's new rating changes in the carriers' balances. A CDR
 * as stored billed its customer `revenue` (lowering the customer's balance) and owes its vendor
 * `cost` (raising the vendor's balance); rerating it to a new rating reverses the old effect and
 * applies the new one, per carrier and side, so the ledger's corrections sum to exactly what an
 * ingest at the new rates would have moved. Rerating again at the same rates moves nothing.
 */
import type { CdrRating } from './cdr-rating';
import type { Micros } from './money';

/** What one CDR's rating moves: who was billed on each side and how much. */
export interface CdrMoney {
  readonly customer_id: number | null;
  readonly vendor_id: number | null;
  /** What the customer pays: ingress cost + short call charge. */
  readonly revenue: Micros;
  /** What the vendor is owed. */
  readonly cost: Micros;
}

export type LedgerSide = 'customer' | 'vendor';

/** A signed change of one carrier's balance on one side. */
export interface SideChange {
  readonly client_id: number;
  readonly side: LedgerSide;
  readonly amount: Micros;
}

/** The money of a fresh rating. */
export function moneyOf(r: CdrRating): CdrMoney {
  return {
    customer_id: r.ingress.carrier_id,
    vendor_id: r.egress?.carrier_id ?? null,
    revenue: r.revenue,
    cost: r.cost,
  };
}

/** The balance effect of a rating: the customer's usage lowers its balance, the vendor's raises it. */
export function balanceEffect(m: CdrMoney): SideChange[] {
  const out: SideChange[] = [];
  if (m.customer_id !== null && m.revenue !== 0n)
    out.push({ client_id: m.customer_id, side: 'customer', amount: -m.revenue });
  if (m.vendor_id !== null && m.cost !== 0n)
    out.push({ client_id: m.vendor_id, side: 'vendor', amount: m.cost });
  return out;
}

/** Whether two ratings move the same money to the same carriers. */
export function sameMoney(a: CdrMoney, b: CdrMoney): boolean {
  return (
    a.customer_id === b.customer_id &&
    a.vendor_id === b.vendor_id &&
    a.revenue === b.revenue &&
    a.cost === b.cost
  );
}

/** Old and new figures of one carrier in a rerate. */
export interface CarrierRerate {
  client_id: number;
  /** CDRs of the carrier as customer (old or new rating), and as vendor. */
  customer_cdrs: number;
  vendor_cdrs: number;
  old_revenue: Micros;
  new_revenue: Micros;
  old_cost: Micros;
  new_cost: Micros;
}

/**
 * Sums a rerate's CDRs: the corrections per carrier and side (new effect − old effect) and the
 * old and new revenue and cost per carrier. One tally per chunk gives the chunk's ledger rows; a
 * tally over the whole run gives the preview.
 */
export class RerateTally {
  private readonly moves = new Map<
    string,
    { client_id: number; side: LedgerSide; amount: Micros; cdrs: number }
  >();
  private readonly perCarrier = new Map<number, CarrierRerate>();
  cdrs = 0;
  changed = 0;
  oldRevenue: Micros = 0n;
  newRevenue: Micros = 0n;
  oldCost: Micros = 0n;
  newCost: Micros = 0n;

  /** Adds one CDR rerated from `old` to `next`; returns whether its money changed. */
  add(old: CdrMoney, next: CdrMoney): boolean {
    this.cdrs++;
    this.oldRevenue += old.revenue;
    this.newRevenue += next.revenue;
    this.oldCost += old.cost;
    this.newCost += next.cost;
    this.carrierSide(old.customer_id, next.customer_id, (c) => {
      c.customer_cdrs++;
    });
    if (old.customer_id !== null) this.carrier(old.customer_id).old_revenue += old.revenue;
    if (next.customer_id !== null) this.carrier(next.customer_id).new_revenue += next.revenue;
    this.carrierSide(old.vendor_id, next.vendor_id, (c) => {
      c.vendor_cdrs++;
    });
    if (old.vendor_id !== null) this.carrier(old.vendor_id).old_cost += old.cost;
    if (next.vendor_id !== null) this.carrier(next.vendor_id).new_cost += next.cost;
    if (sameMoney(old, next)) return false;
    this.changed++;
    // This CDR's net correction per carrier and side (a reversal and a new charge of one carrier
    // and side are one move of one CDR).
    const mine: SideChange[] = [];
    const put = (e: SideChange, sign: bigint) => {
      const i = mine.findIndex((m) => m.client_id === e.client_id && m.side === e.side);
      if (i < 0) mine.push({ ...e, amount: sign * e.amount });
      else mine[i] = { ...e, amount: mine[i]!.amount + sign * e.amount };
    };
    for (const e of balanceEffect(old)) put(e, -1n);
    for (const e of balanceEffect(next)) put(e, 1n);
    for (const m of mine) if (m.amount !== 0n) this.move(m.client_id, m.side, m.amount);
    return true;
  }

  /** The balance corrections, without the ones that net to zero, by carrier then side. */
  changes(): (SideChange & { cdrs: number })[] {
    return [...this.moves.values()]
      .filter((m) => m.amount !== 0n)
      .sort((a, b) => a.client_id - b.client_id || (a.side < b.side ? -1 : a.side > b.side ? 1 : 0));
  }

  /** Old and new figures per carrier, by carrier id. */
  carriers(): CarrierRerate[] {
    return [...this.perCarrier.values()].sort((a, b) => a.client_id - b.client_id);
  }

  /** Adds another tally's figures into this one (a run's totals from its chunks). */
  merge(o: RerateTally): void {
    this.cdrs += o.cdrs;
    this.changed += o.changed;
    this.oldRevenue += o.oldRevenue;
    this.newRevenue += o.newRevenue;
    this.oldCost += o.oldCost;
    this.newCost += o.newCost;
    for (const c of o.perCarrier.values()) {
      const t = this.carrier(c.client_id);
      t.customer_cdrs += c.customer_cdrs;
      t.vendor_cdrs += c.vendor_cdrs;
      t.old_revenue += c.old_revenue;
      t.new_revenue += c.new_revenue;
      t.old_cost += c.old_cost;
      t.new_cost += c.new_cost;
    }
    for (const m of o.moves.values()) this.move(m.client_id, m.side, m.amount, m.cdrs);
  }

  private carrier(id: number): CarrierRerate {
    let c = this.perCarrier.get(id);
    if (c === undefined) {
      c = {
        client_id: id,
        customer_cdrs: 0,
        vendor_cdrs: 0,
        old_revenue: 0n,
        new_revenue: 0n,
        old_cost: 0n,
        new_cost: 0n,
      };
      this.perCarrier.set(id, c);
    }
    return c;
  }

  /** Counts the CDR once for each carrier it belongs to on a side (old or new). */
  private carrierSide(a: number | null, b: number | null, f: (c: CarrierRerate) => void): void {
    if (a !== null) f(this.carrier(a));
    if (b !== null && b !== a) f(this.carrier(b));
  }

  private move(client_id: number, side: LedgerSide, amount: Micros, cdrs = 1): void {
    const k = `${side}:${client_id}`;
    const m = this.moves.get(k);
    if (m === undefined) this.moves.set(k, { client_id, side, amount, cdrs });
    else {
      m.amount += amount;
      m.cdrs += cdrs;
    }
  }
}
