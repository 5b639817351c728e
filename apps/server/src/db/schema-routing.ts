/** Row types of the tables the routing area adds in its own migration (see db/migrations). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RoutingTables {}
