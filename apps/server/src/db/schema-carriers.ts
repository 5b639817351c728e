/** Row types of the tables the carriers area adds in its own migration (see db/migrations). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CarriersTables {}
