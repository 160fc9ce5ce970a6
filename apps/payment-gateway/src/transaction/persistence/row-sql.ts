import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * The pieces of hand-written statements on an entity's table, with values as TypeORM would write
 * them (column transformers, JSON of jsonb columns): for the sale's hot statements, where building
 * them through TypeORM costs more than running them (docs/decisions.md, "bench:sale: a cheaper sale").
 */

/**
 * The JSON of a row (keys are column names) and its column list: `INSERT INTO t (<columns>) SELECT
 * <columns> FROM jsonb_populate_record(NULL::t, $n::jsonb)` types every value as its column,
 * whatever the statement around it. Properties left undefined are left out (their default applies).
 */
export function rowJson<E extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<E>, entity: object): { json: string; columns: string } {
  const row: Record<string, unknown> = {};
  for (const column of manager.connection.getMetadata(target).columns) {
    const value: unknown = column.getEntityValue(entity as ObjectLiteral, true);
    if (value !== undefined) row[column.databaseName] = value;
  }
  return { json: JSON.stringify(row), columns: Object.keys(row).map((name) => `"${name}"`).join(', ') };
}

/** `"column" = $n, …` of `changes` (entity property names), their values pushed onto `params`. */
export function setClause<E extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<E>, changes: object, params: unknown[]): string {
  const metadata = manager.connection.getMetadata(target);
  const driver = manager.connection.driver;
  const assignments: string[] = [];
  for (const [property, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    const column = metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${metadata.name} has no column ${property}`);
    params.push(driver.preparePersistentValue(column.getEntityValue({ [property]: value }, true), column));
    assignments.push(`"${column.databaseName}" = $${params.length}`);
  }
  return assignments.join(', ');
}
