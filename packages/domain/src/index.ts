/** @tandem/domain: pure business logic of the carrier platform (no I/O). */
export * from './money';
export * from './prefix-index';
export * from './rating';
export * from './jurisdiction';
export * from './time-profile';
export * from './digits';
export * from './block-list';
