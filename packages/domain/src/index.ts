/**
 * @tandem/domain: the pure business logic of the carrier platform (no I/O).
 *
 * Money (exact, micro-units), rating (billed duration, cost), US jurisdiction, time profiles,
 * number handling, block lists, and the routing engine: a RoutingSnapshot built once from plain
 * configuration, and decide() per call.
 */

// Money and rating
export type { Micros, MoneyInput } from './money';
export {
  MICROS_PER_UNIT,
  MONEY_SCALE,
  MoneyFormatError,
  addMoney,
  chargeForSeconds,
  divideMoney,
  divideRoundHalfUp,
  formatMoney,
  formatMoneyDifference,
  marginPercent,
  maximumCost,
  meetsMinimumMargin,
  parseMoney,
  roundMoney,
  subtractMoney,
  sumMoney,
  toMicros,
} from './money';
export type { BillingIncrements, LegTerms, RatedCall, RatedLeg } from './rating';
export { BillingTermsError, billedDuration, callCost, rateCall, rateLeg } from './rating';
export type {
  CdrLegRating,
  CdrRating,
  CdrToRate,
  PricedNumber,
  RatedCdrLeg,
  RateTableChoice,
  UnpricedReason,
} from './cdr-rating';
export { ingressNumbers, priceNumber, rateCdr, rateCdrLeg } from './cdr-rating';
export { affordableSeconds, CREDIT_HORIZON_S, holdFor } from './credit';
export type { CarrierRerate, CdrMoney, LedgerSide, SideChange } from './rerate';
export { balanceEffect, moneyOf, RerateTally, sameMoney } from './rerate';
export type {
  Commission,
  CommissionFrequency,
  CommissionMethod,
  CommissionPeriod,
  CommissionTerms,
  Traffic,
} from './commission';
export {
  addTraffic,
  closedPeriods,
  COMMISSION_DECIMALS,
  COMMISSION_FREQUENCIES,
  commissionBase,
  commissionCorrection,
  commissionOf,
  NO_TRAFFIC,
  nextPeriod as nextCommissionPeriod,
  periodContaining as commissionPeriodContaining,
  periodKey,
  trafficByPeriod,
} from './commission';

// Lookups
export type { PrefixRow } from './prefix-index';
export { PrefixCodeError, PrefixIndex } from './prefix-index';
export { CodeDeck, DeckPath } from './code-deck';
export type { ComparedCode, ComparedRow, ComparedTable } from './rate-compare';
export { codePrefixes, compareRates } from './rate-compare';
export type { RateRow } from './rate-store';
export { RateStore } from './rate-store';
export { MoneyReader, writeRateRowChecked } from './snapshot-rates';
export type {
  DefaultIjRule,
  Jurisdiction,
  JurisdictionData,
  JurisdictionalRates,
  NpaNxxInfo,
  RateColumn,
  RateTableType,
} from './jurisdiction';
export {
  JurisdictionIndex,
  RATE_COLUMN_FALLBACK,
  nanpOffset,
  nanpTenDigits,
  rateColumnFor,
  rateInColumn,
} from './jurisdiction';
export type { CompiledTimeProfile, TimeProfileConfig, TimeProfileType } from './time-profile';
export {
  TimeProfileError,
  compileTimeProfile,
  matchesTimeProfile,
  parseTimeOfDay,
  timeProfileCovers,
} from './time-profile';

// Numbers, hosts, block lists
export type {
  DigitManipulationAction,
  DigitManipulationRule,
  DigitReplacementRule,
  LengthCondition,
  NumberField,
  NumberRewrite,
  TrunkNumberRules,
} from './digits';
export {
  applyDigitManipulation,
  applyDigitReplacement,
  compileNumberRules,
  rewriteNumber,
  stripTechPrefix,
} from './digits';
export type { HostMatch } from './network';
export { HostIndex, ipv4InNetwork, maskOf, parseIpv4 } from './network';
export type { BlockListEntry } from './block-list';
export { BlockList, blockEntryMatches } from './block-list';
export type {
  CompiledDigitMap,
  DigitMapAction,
  DigitMapConfig,
  DigitMapItemConfig,
  DigitMapMatch,
  MappedNumber,
} from './digit-map';
export {
  DigitMapError,
  applyDigitMap,
  applyDigitMapItem,
  compileDigitMap,
  describeMapping,
  digitMapItemMatches,
  mapNumber,
} from './digit-map';
export type { MediaIpBlockConfig, OcnBlockConfig, OcnBlockKind } from './call-blocks';
export { MediaIpBlockList, OcnBlockList, normalizeOcn, normalizeOrigid } from './call-blocks';

// Routing engine
export type * from './config';
export type * from './snapshot-types';
export { SnapshotError } from './snapshot-types';
export { buildSnapshot, buildSnapshotSteps } from './snapshot';
export { ROWS_PER_STEP, runSteps, runStepsSliced, type Steps } from './steps';
export type { RateRowChange } from './rate-patch';
export { patchRateRows } from './rate-patch';
export { patchDynamicQos } from './qos-patch';
export type {
  CallAttempt,
  DecideOptions,
  EgressRoute,
  IngressLeg,
  RoutingDecision,
  RoutingState,
} from './routing-types';
export { createRoutingState } from './routing-types';
export { decide } from './routing';
export type { EgressDropReason, RejectCode, RejectReason } from './reject-codes';
export { EGRESS_DROP, REJECT } from './reject-codes';
export type { TraceOutcome, TraceStep, TraceStepName } from './trace';
export type { FailoverEntry, FailoverOutcome, FailoverTable, FailoverTrunk } from './failover';
export { applyFailover, failoverEntry, failoverFor, failoverTable, sipReasonPhrase } from './failover';
export type { IngressMatch, IngressSearch } from './ingress-match';
export { findIngress } from './ingress-match';
export type { LimitHit } from './admission';
export { availableCredit, creditAllows, heldCredit, limitReached, liveBalance } from './admission';

// Rate generation
export type {
  ColumnPrice,
  GeneratedRate,
  LcrBasis,
  MarginRange,
  MarkupType,
  RateGenCode,
  RateGenRule,
  RateGenVendor,
  VendorRate,
} from './rategen';
export { LCR_BASES, MARKUP_TYPES, RateGenRuleError, generateRates } from './rategen';
export * from './traffic-stats';
export * from './monitoring';

// Billing: invoice arithmetic and periods
export type {
  BillingPeriod,
  InvoiceAmounts,
  InvoiceBalance,
  InvoicingCycle,
  PayStatus,
  StatementTotals,
} from './billing';
export {
  INVOICING_CYCLES,
  dueDateOf,
  invoiceAmounts,
  invoiceBalance,
  localDate,
  localMidnight,
  nextPeriod,
  periodContaining,
  periodsDue,
  statementTotals,
  tzOffsetMinutes,
  parseTzOffset,
  zoneOffsetMinutes,
} from './billing';
export { alertStep, carrierAvailableCredit, toCents, topUpCharge } from './alerts';
export type { ChargeFrequency, ComparedLine, OurLine, TheirLine, VendorComparison } from './finance-extras';
export {
  CHARGE_FREQUENCIES,
  chargesDue,
  compareVendorInvoice,
  isDayKey,
  minutesOfSeconds,
  occurrenceDate,
} from './finance-extras';
export type { ScheduleFrequency } from './report-schedule';
export { nextRunAfter, periodBefore, wallClock } from './report-schedule';

// DID (origination)
export * from './did';
export { decideDid, didOfCall, didStateRefusal, didTerms } from './did-routing';
