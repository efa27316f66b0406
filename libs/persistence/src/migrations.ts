import { Migration } from '@mikro-orm/migrations';

export interface SqlMigration {
  name: string;
  class: new (...args: ConstructorParameters<typeof Migration>) => Migration;
  /** The SQL it runs (tests key their pre-migrated template databases by it). */
  statements?: readonly string[];
}

/**
 * A forward-only migration made of plain SQL statements. Services list theirs
 * explicitly (no file globbing), so bundled images run the same migrations.
 */
export function sqlMigration(name: string, statements: string[]): SqlMigration {
  class PlainSqlMigration extends Migration {
    override name = name;
    override up(): void {
      for (const statement of statements) this.addSql(statement);
    }
  }
  return { name, class: PlainSqlMigration, statements: [...statements] };
}
