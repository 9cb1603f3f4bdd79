import type { Knex } from 'knex';

/** Databases whose hot queries run as named prepared statements (see {@link namedStatement}). */
const preparing = new WeakSet<Knex>();

/** Lets `db`'s hot queries run as named prepared statements: PostgreSQL servers, unless turned off. */
export function enableNamedStatements(db: Knex): void {
  preparing.add(db);
}

/**
 * `query` as the named prepared statement `name`, where `db` allows them: PostgreSQL then parses and
 * plans it once per connection instead of on every call (the chatbot read costs it 150-215 µs of
 * CPU unprepared, 40 µs prepared). Elsewhere (PGlite, a transaction, named statements turned off)
 * the query is unchanged.
 *
 * The SQL text must be the same on every call, or the driver refuses the name: no IN lists whose
 * length varies (`= ANY(?)` instead), and no `*` (a column a migration adds while an instance runs
 * would change a prepared `*`'s result type, which PostgreSQL refuses). After a few calls
 * PostgreSQL may plan for any parameters at once: name only queries whose best plan does not
 * depend on their values (not a list of a thousand resources).
 */
export function namedStatement<Q extends Knex.ChainableInterface>(db: Knex, query: Q, name: string): Q {
  return preparing.has(db) ? query.options({ name: `parley_${name}` }) : query;
}
