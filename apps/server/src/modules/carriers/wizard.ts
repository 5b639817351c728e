import type { api } from '@tandem/contract';
import type { z } from 'zod';
import { checkUniqueOf, createRow } from '../../http/crud';
import type { Ctx } from '../../http/context';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { trunkTable, validateTrunk } from '../trunks/trunk-table';
import { carrierTable } from './carrier-table';

type Body = z.output<typeof api.carriers.wizardBody>;
type Step = (typeof api.carriers.WIZARD_STEPS)[number];
type Row = Record<string, unknown>;

/** A step's errors name their fields under the step (vendor.name, customer_trunk.hosts.0.host). */
async function inStep<T>(step: Step, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof AppError) || !e.fields) throw e;
    const fields = Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [`${step}.${k}`, v]));
    throw new AppError(e.code, e.key, e.params, e.status, fields);
  }
}

const carrierOf = (step: Step, data: Row) => ({
  ...data,
  client_type: step === 'vendor' ? 'vendor' : 'client',
});
const trunkOf = (step: Step, data: Row, carrierId: number) => ({
  ...data,
  carrier_id: carrierId,
  direction: step === 'vendor_trunk' ? 'egress' : 'ingress',
});

/** Termination > Wizard: the four records in one transaction; any refusal leaves nothing behind. */
export async function runWizard(s: Services, ctx: Ctx<unknown, unknown, Body>) {
  const carriers = carrierTable(s);
  const trunks = trunkTable(s);
  const c = ctx as Ctx<unknown, unknown, unknown>;
  const b = ctx.body;
  const ids = await s.db.transaction().execute(async (trx) => {
    const vendorId = await inStep('vendor', () =>
      createRow(s, carriers, trx, carrierOf('vendor', b.vendor), c),
    );
    const vendorTrunkId = await inStep('vendor_trunk', () =>
      createRow(s, trunks, trx, trunkOf('vendor_trunk', b.vendor_trunk, vendorId), c),
    );
    const customerId = await inStep('customer', () =>
      createRow(s, carriers, trx, carrierOf('customer', b.customer), c),
    );
    const customerTrunkId = await inStep('customer_trunk', () =>
      createRow(s, trunks, trx, trunkOf('customer_trunk', b.customer_trunk, customerId), c),
    );
    return {
      vendor_id: vendorId,
      vendor_trunk_id: vendorTrunkId,
      customer_id: customerId,
      customer_trunk_id: customerTrunkId,
    };
  });
  s.configChanged.notify();
  return ids;
}

/** One step's rules against the database, without writing (the carrier of a trunk step is the one being created). */
export async function checkWizardStep(
  s: Services,
  ctx: Ctx<unknown, unknown, { step: Step; data: Row }>,
): Promise<void> {
  const { step, data } = ctx.body;
  await inStep(step, async () => {
    if (step === 'vendor' || step === 'customer') {
      const t = carrierTable(s);
      const body = carrierOf(step, data);
      await checkUniqueOf(t, s.db, body, null);
      await t.validate?.(s.db, body, null, ctx as Ctx<unknown, unknown, unknown>);
      return;
    }
    const body = trunkOf(step, data, 0);
    await checkUniqueOf(trunkTable(s), s.db, body, null);
    await validateTrunk(s.db, body, null, { carrierActive: true });
  });
}
