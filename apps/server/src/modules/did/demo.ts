import type { CdrIn } from '@tandem/contract';
import type { Services } from '../../services';
import type { CdrIngest } from '../cdr/ingest';
import { openStandaloneIngest } from '../cdr/standalone';
import { didCarrierWriters } from './routes';
import { createPortRequest, movePortRequest } from './extras';
import { assign, importNumbers } from './service';
import type { Db } from '../../db/connection';
import { localDate } from '@tandem/domain';

/** The demo's DID business (seed-demo): names are the natural keys that make it idempotent. */
export const DID_DEMO = {
  vendor: 'Demo DID Vendor',
  vendorIp: '203.0.113.200',
  client: 'Demo DID Client',
  clientIp: '198.51.100.200',
  login: { name: 'did_client', password: 'DidClient#2026' },
  first: '4930200000',
  count: 200,
  assigned: 25,
  calls: 1500,
  days: 30,
} as const;

export interface DidDemoReport {
  created: Record<string, number>;
  credential: { name: string; password: string; status: 'created' | 'exists' } | null;
}

/**
 * Seeds the DID demo through the module's own code paths: billing rules, a DID vendor (its IP), a
 * DID client (its IP, portal user), 200 numbers imported by range, 25 of them assigned (setup fees
 * and the month charged), then a month of inbound calls to them through the CDR ingest (rated on
 * both sides, billed through the ledger). A second run finds the vendor and creates nothing; the
 * calls' batch ids are fixed, so a half-done run resumes.
 */
export async function seedDemoDids(s: Services, ingest?: CdrIngest): Promise<DidDemoReport> {
  const created: Record<string, number> = {};
  const exists = await s.db
    .selectFrom('carriers')
    .select('client_id')
    .where('name', '=', DID_DEMO.vendor)
    .executeTakeFirst();
  let credential: DidDemoReport['credential'] = {
    name: DID_DEMO.login.name,
    password: DID_DEMO.login.password,
    status: 'exists',
  };
  if (!exists) {
    const w = didCarrierWriters(s);
    const now = new Date();
    await s.db.transaction().execute(async (trx) => {
      const rule = async (name: string, v: Record<string, string>) => {
        const found = await trx
          .selectFrom('did_billing_rules')
          .select('id')
          .where('name', '=', name)
          .executeTakeFirst();
        if (found) return found.id;
        const r = await trx
          .insertInto('did_billing_rules')
          .values({ name, updated_by: 'seed-demo', updated_at: now, ...v })
          .returning('id')
          .executeTakeFirstOrThrow();
        created.did_billing_rule = (created.did_billing_rule ?? 0) + 1;
        return r.id;
      };
      const sell = await rule('Demo DID Standard', {
        monthly_price: '2.50',
        per_minute: '0.0120',
        setup_fee: '1.00',
      });
      const cost = await rule('Demo DID Wholesale', { monthly_price: '0.60', per_minute: '0.0040' });
      const vendorId = await w.createVendor(
        trx,
        {
          name: DID_DEMO.vendor,
          call_limit: 100,
          tech_prefix: '',
          decimal_places: 4,
          billing_rule_id: cost,
          media_type: 'proxy',
          auth_type: 'ip',
          hosts: [DID_DEMO.vendorIp],
        },
        null,
      );
      const clientId = await w.createClient(
        trx,
        {
          name: DID_DEMO.client,
          company: 'Demo DID Client Ltd',
          main_email: 'did-client@example.com',
          address: '',
          mode: 'postpaid',
          credit_limit: '1000',
          test_credit: '0',
          media_type: 'proxy',
          t38: false,
          auth_type: 'host',
          hosts: [DID_DEMO.clientIp],
          round_up: false,
          channels: 30,
          grace_days: 7,
          billing_rule_id: sell,
          did_product_id: null,
          buy_needs_approval: false,
          signin_notification: false,
          username: DID_DEMO.login.name,
          password: DID_DEMO.login.password,
        },
        null,
      );
      created.did_vendor = 1;
      created.did_client = 1;
      const numbers = Array.from({ length: DID_DEMO.count }, (_, k) =>
        String(BigInt(DID_DEMO.first) + BigInt(k)),
      );
      // Imported and assigned a month back, so the month's calls find them assigned.
      const back = new Date(now.getTime() - (DID_DEMO.days + 1) * 86_400_000);
      const r = await importNumbers(trx, {
        vendorId,
        ruleId: cost,
        numbers,
        duplicate: 'ignore',
        method: 'range',
        fileName: 'seed-demo',
        user: { user_id: null, name: 'seed-demo' },
        now: back,
      });
      created.did = r.inserted;
      const ids = await trx
        .selectFrom('dids')
        .select('did_id')
        .where('number', 'in', numbers.slice(0, DID_DEMO.assigned))
        .execute();
      await assign(
        trx,
        ids.map((d) => d.did_id),
        clientId,
        null,
        'seed-demo',
        back,
        'seed-demo',
      );
      created.did_port_request = await seedPortRequests(s, trx, clientId, now);
    });
    credential = { ...credential!, status: 'created' };
    s.configChanged.notify();
  }
  const calls = await seedDidCalls(s, ingest);
  if (calls > 0) created.did_cdr = calls;
  return { created, credential };
}

/** A month of inbound calls to the demo client's numbers, through the real ingest (resumable). */
async function seedDidCalls(s: Services, given?: CdrIngest): Promise<number> {
  const trunks = await s.db
    .selectFrom('did_vendors as v')
    .innerJoin('carriers as c', 'c.client_id', 'v.carrier_id')
    .innerJoin('did_clients as dc', (j) => j.on('dc.carrier_id', '>', 0))
    .innerJoin('carriers as k', 'k.client_id', 'dc.carrier_id')
    .select(['v.trunk_id as vendor_trunk', 'dc.trunk_id as client_trunk'])
    .where('c.name', '=', DID_DEMO.vendor)
    .where('k.name', '=', DID_DEMO.client)
    .executeTakeFirst();
  if (!trunks?.vendor_trunk || !trunks.client_trunk) return 0;
  const numbers = await s.db
    .selectFrom('dids as d')
    .innerJoin('carriers as k', 'k.client_id', 'd.client_id')
    .select(['d.number', 'd.assigned_at'])
    .where('k.name', '=', DID_DEMO.client)
    .orderBy('d.number')
    .execute();
  if (numbers.length === 0) return 0;
  const anchor =
    Math.floor(Math.min(...numbers.map((n) => new Date(n.assigned_at!).getTime())) / 3_600_000) * 3_600_000;
  const own = given ? null : await openStandaloneIngest(s);
  try {
    const ingest = given ?? own!.ingest;
    let seed = 14_2026;
    const rnd = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const perBatch = 500;
    const batches: { batch_id: string; cdrs: CdrIn[] }[] = [];
    for (let b = 0; b * perBatch < DID_DEMO.calls; b++) {
      const cdrs: CdrIn[] = [];
      for (let k = 0; k < perBatch && b * perBatch + k < DID_DEMO.calls; k++) {
        const i = b * perBatch + k;
        const start = anchor + 3_600_000 + Math.floor(rnd() * DID_DEMO.days * 86_400_000);
        const answered = rnd() < 0.7;
        const duration = answered ? Math.max(5, Math.round(-Math.log(1 - rnd()) * 150)) : 0;
        const answer = answered ? start + 3000 + Math.floor(rnd() * 10_000) : null;
        const end = (answer ?? start + 20_000) + duration * 1000;
        const number = numbers[Math.floor(rnd() * numbers.length)]!.number;
        cdrs.push({
          call_id: `did-demo-${anchor}-${i}`,
          attempt: 1,
          is_final_attempt: true,
          start_time: new Date(start).toISOString(),
          answer_time: answer === null ? null : new Date(answer).toISOString(),
          end_time: new Date(end).toISOString(),
          duration,
          ingress_trunk_id: trunks.vendor_trunk,
          egress_trunk_id: trunks.client_trunk,
          source_ip: DID_DEMO.vendorIp,
          ani: `1555${String(1_000_000 + Math.floor(rnd() * 8_999_999))}`,
          dnis: number,
          egress_dnis: number,
          release_cause: answered ? 200 : 480,
          release_side: answered ? 'O' : 'T',
          pdd_ms: 800 + Math.floor(rnd() * 2000),
        } as CdrIn);
      }
      batches.push({ batch_id: `did-demo-${anchor}-${b}`, cdrs });
    }
    const t = await ingest.ingestMany(batches, 'demo');
    return t.stored;
  } finally {
    await own?.close();
  }
}

/**
 * The demo client's port-in requests, through the same code as the portal's and the operator's
 * (created as the client's portal user would, moved as the operator would): one waiting for the
 * operator, one in progress, one completed, one rejected, so the Port-in pages and the client's
 * notices show each state. Numbers outside the repository's demo range.
 */
async function seedPortRequests(s: Services, trx: Db, clientId: number, now: Date): Promise<number> {
  const client = { user: { user_id: null, name: DID_DEMO.login.name } };
  const operator = { user: { user_id: null, name: 'seed-demo' } };
  const { time_zone } = await trx
    .selectFrom('carriers')
    .select('time_zone')
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  const inDays = (d: number) => localDate(now.getTime() + d * 86_400_000, time_zone);
  const requests = [
    { numbers: ['4989123450', '4989123451', '4989123452'], from: 'Telekom Deutschland', in: 10, moves: [] },
    {
      numbers: ['4940555000', '4940555001'],
      from: 'Vodafone GmbH',
      in: 5,
      moves: [{ status: 'in_progress', note: 'LOA received, submitted to the losing carrier' }],
    },
    {
      numbers: ['4969777100'],
      from: 'Telefonica Germany',
      in: 1,
      moves: [
        { status: 'in_progress', note: 'Submitted' },
        { status: 'completed', note: 'Ported; add the number to the repository to route it' },
      ],
    },
    {
      numbers: ['4921133300', '4921133301'],
      from: 'NetCologne',
      in: 3,
      moves: [{ status: 'rejected', note: 'Name on the LOA does not match the subscriber' }],
    },
  ] as const;
  for (const r of requests) {
    const { id } = await createPortRequest(
      s,
      trx,
      { carrier_id: clientId, time_zone },
      {
        numbers: r.numbers.join('\n'),
        current_provider: r.from,
        requested_date: inDays(r.in),
        note: `Port-in of ${r.numbers.length} number(s) from ${r.from}`,
      },
      client,
      now,
    );
    for (const m of r.moves) await movePortRequest(s, trx, id, m, operator);
  }
  return requests.length;
}
