import { formatMoney, parseMoney, type Micros } from '@tandem/domain';
import type { Db } from '../../db/connection';
import { recordPayment } from '../billing/payments';

/**
 * The one place an online top-up moves money: billing's `recordPayment` (a payments row, received,
 * method card or wallet, with the provider's fee and transaction id, and its one ledger row),
 * idempotent by the key `online:<online payment id>`, so whatever the number of webhook deliveries
 * or returns, the balance moves once. Returns the carrier's balance after it and the payment's
 * ledger reference (`payment:<payment id>`).
 */
export async function recordOnlineTopUp(
  trx: Db,
  p: {
    onlinePaymentId: number;
    clientId: number;
    amount: Micros;
    fee: Micros;
    provider: 'stripe' | 'paypal';
    transactionId: string;
  },
): Promise<{ balance: Micros | null; ref: string; created: boolean }> {
  const r = await recordPayment(trx, {
    client_id: p.clientId,
    direction: 'received',
    amount: formatMoney(p.amount, 6),
    fee: formatMoney(p.fee, 6),
    method: p.provider === 'stripe' ? 'card' : 'wallet',
    transaction_id: p.transactionId,
    note: `Online payment ${p.onlinePaymentId} (${p.provider})`,
    idempotency_key: `online:${p.onlinePaymentId}`,
    created_by: p.provider,
  });
  return { balance: parseMoney(r.balance), ref: `payment:${r.payment_id}`, created: r.created };
}
