/** The ts-proto name of a proto field: `first_name` -> `firstName`, `address_1` -> `address1`. */
export type ProtoFieldName<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<ProtoFieldName<Tail>>}`
  : S;

export function protoFieldName<S extends string>(name: S): ProtoFieldName<S> {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) as ProtoFieldName<S>;
}

/**
 * A record keyed by proto field names (the REST and storage spelling,
 * `address_1`) as the ts-proto message (`address1`); absent keys stay absent.
 */
export function toProtoFields<K extends string, V>(
  names: readonly K[],
  record: Partial<Record<K, V>>,
): { [P in K as ProtoFieldName<P>]: V } {
  const out: Record<string, V> = {};
  for (const name of names) if (record[name] !== undefined) out[protoFieldName(name)] = record[name] as V;
  return out as { [P in K as ProtoFieldName<P>]: V };
}

/** The reverse of toProtoFields: a ts-proto message back to proto field names (absent keys stay absent). */
export function fromProtoFields<K extends string, V>(
  names: readonly K[],
  message: Partial<{ [P in K as ProtoFieldName<P>]: V }>,
): Partial<Record<K, V>> {
  const source = message as Record<string, V | undefined>;
  const out: Partial<Record<K, V>> = {};
  for (const name of names) {
    const value = source[protoFieldName(name)];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
