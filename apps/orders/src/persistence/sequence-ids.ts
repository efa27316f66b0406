import type { Reader } from '@storefront/persistence';

/**
 * Ids of a table's `id` sequence, drawn in blocks: an insert that must know
 * its ids before it runs (its events carry them, in the same statement) costs
 * no extra round trip per row. Like a sequence's own cache, ids are unique
 * but may leave gaps (a block not used up before a restart), and replicas
 * interleave their blocks, so ids follow creation order only roughly.
 */
export class SequenceIds {
  private ids: number[] = [];
  private loading: Promise<void> | undefined;

  constructor(
    private readonly reader: Reader,
    /** The table, schema-qualified and quoted (`"orders"."orders"`). */
    private readonly table: string,
    private readonly blockSize: number,
  ) {}

  async take(count: number): Promise<number[]> {
    while (this.ids.length < count) {
      this.loading ??= this.load(Math.max(count, this.blockSize)).finally(() => (this.loading = undefined));
      await this.loading;
    }
    return this.ids.splice(0, count);
  }

  private async load(count: number): Promise<void> {
    const rows = await this.reader.query<{ id: string }>(
      `select nextval(pg_get_serial_sequence(?, 'id')) as id from generate_series(1, ?::int)`,
      [this.table, count],
    );
    this.ids.push(...rows.map((r) => Number(r.id)));
  }
}
