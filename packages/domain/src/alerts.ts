/**
 * Balance notifications and online top-ups (issue 12, docs/mail.md): when a carrier's low-balance
 * and zero-balance mails go out, and what an online top-up charges.
 */
import { divideRoundHalfUp, roundMoney, type Micros } from './money';

/**
 * The credit a carrier may still use: balance plus its floor (allowed credit when prepaid, credit
 * limit when postpaid); null when its credit is unlimited. The same floor as live credit control
 * (credit.ts), without the holds of calls in progress.
 */
export function carrierAvailableCredit(c: {
  mode: 'prepaid' | 'postpaid';
  balance: Micros;
  credit_limit: Micros;
  allowed_credit: Micros;
  unlimited_credit: boolean;
}): Micros | null {
  if (c.unlimited_credit) return null;
  return c.balance + (c.mode === 'postpaid' ? c.credit_limit : c.allowed_credit);
}

/**
 * One step of an alert's state: `below` is whether the carrier was under the line when last looked
 * at. A mail goes out only at the crossing (it was not below, it is now); it can go out again only
 * after the value came back to the line or above (the state re-arms). So a carrier sitting below the
 * line, debited call after call, gets one mail, not one per debit. `atLine`: being exactly on the
 * line counts as below (zero balance: nothing left is "zero").
 */
export function alertStep(
  below: boolean,
  value: Micros,
  line: Micros,
  atLine = false,
): { below: boolean; send: boolean } {
  const now = atLine ? value <= line : value < line;
  return { below: now, send: now && !below };
}

/**
 * What the client pays for a top-up of `amount`: the amount plus the service charge (a percentage,
 * rounded half up to cents). The carrier is credited `amount`; the provider's fee (`feePercent` of
 * the charge plus `feeFixed`, rounded half up to cents) is the operator's cost, recorded beside it.
 */
export function topUpCharge(
  amount: Micros,
  serviceChargePercent: Micros,
  feePercent: Micros,
  feeFixed: Micros,
): { charge: Micros; serviceCharge: Micros; fee: Micros } {
  // percent values are micro-units too: amount * pct / (100 * 10^6)
  const serviceCharge = roundMoney(divideRoundHalfUp(amount * serviceChargePercent, 100_000_000n), 2);
  const charge = amount + serviceCharge;
  const fee = roundMoney(divideRoundHalfUp(charge * feePercent, 100_000_000n) + feeFixed, 2);
  return { charge, serviceCharge, fee };
}

/** Amount in the provider's smallest unit (cents): only whole cents are charged. */
export function toCents(amount: Micros): bigint {
  if (amount % 10_000n !== 0n) throw new RangeError('amount is not a whole number of cents');
  return amount / 10_000n;
}
