import { type Compilable, type CompiledQuery, createQueryId, type QueryResult, type RootOperationNode } from 'kysely';
import type { Executor } from './database.types';

/** Stands for a parameter while the query is built once; replaced by the real value on each run. */
class Placeholder {
  constructor(readonly name: string) {}
}

interface Template {
  sql: string;
  query: RootOperationNode;
  /** Per bound parameter: the name of the value to put there, or a constant the builder used. */
  slots: ({ name: string } | { constant: unknown })[];
}

/**
 * A query of a fixed shape, built and compiled by Kysely once and then run with new values.
 * Kysely builds and compiles every query on every call, 25–55 µs apiece on the reference machine
 * (docs/performance.md) — more than SQLite takes to run the query — and a like ran nine of them.
 *
 * `build` receives stand-ins for its parameters and must use them only as bound values (in
 * `where`, `values`, `set`, `limit`…), never to decide the shape of the query (no `if` on them, no
 * arrays for `in`): the SQL text is fixed after the first call. The SQL is the same for every
 * executor of one database, so a transaction may run it too.
 */
export class PreparedQuery<P extends Record<string, unknown>, O> {
  private template: Template | undefined;

  constructor(private readonly build: (executor: Executor, params: P) => Compilable<O>) {}

  async execute(executor: Executor, params: P): Promise<QueryResult<O>> {
    const template = (this.template ??= this.compile(executor));
    const compiled: CompiledQuery<O> = {
      sql: template.sql,
      query: template.query,
      queryId: createQueryId(),
      parameters: template.slots.map((slot) => ('name' in slot ? params[slot.name] : slot.constant)),
    };
    return executor.executeQuery(compiled);
  }

  async rows(executor: Executor, params: P): Promise<O[]> {
    return (await this.execute(executor, params)).rows;
  }

  async first(executor: Executor, params: P): Promise<O | undefined> {
    return (await this.execute(executor, params)).rows[0];
  }

  private compile(executor: Executor): Template {
    const standIns = new Proxy({} as P, { get: (_target, name) => new Placeholder(String(name)) });
    const compiled = this.build(executor, standIns).compile();
    return {
      sql: compiled.sql,
      query: compiled.query,
      slots: compiled.parameters.map((value) =>
        value instanceof Placeholder ? { name: value.name } : { constant: value },
      ),
    };
  }
}
