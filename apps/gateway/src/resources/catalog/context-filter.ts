/** The part of a JSON Schema the context filter reads. */
interface ContextualSchema {
  context?: readonly string[];
  properties?: Record<string, ContextualSchema>;
}

/**
 * The host platform's `filter_response_by_context`: every schema property
 * declares the contexts (`view`, `edit`, `embed`) it appears in, and a
 * response keeps only those of the requested context, recursively. Keys the
 * schema does not describe (`_links`, custom meta keys) are kept. The item
 * schema that OPTIONS shows is thereby the single source of truth.
 */
export function filterByContext<T extends object>(item: T, schema: object, context: string): Partial<T> {
  const properties = (schema as ContextualSchema).properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    const property = properties[key];
    if (property?.context && !property.context.includes(context)) continue;
    out[key] = property?.properties && isPlainObject(value) ? filterByContext(value, property, context) : value;
  }
  return out as Partial<T>;
}

function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface JsonSchemaNode {
  context?: readonly string[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  [key: string]: unknown;
}

const EVERY_CONTEXT = ['view', 'edit', 'embed'];

/**
 * The response schema of a context-filtered resource: a field is required
 * only when every context shows it (recursively), so the schema holds for
 * view, edit and embed responses alike. Named by `title` (OpenAPI component).
 */
export function contextualResponse(schema: object, title: string): object {
  const visit = (node: JsonSchemaNode): JsonSchemaNode => {
    if (!node.properties) return node;
    const properties = Object.fromEntries(Object.entries(node.properties).map(([key, value]) => [key, visit(value)]));
    const always = Object.keys(properties).filter((key) => {
      const context = properties[key].context;
      return !context || EVERY_CONTEXT.every((c) => context.includes(c));
    });
    const { required: _required, ...rest } = node;
    void _required;
    return { ...rest, properties, ...(always.length ? { required: always } : {}) };
  };
  return { ...visit(JSON.parse(JSON.stringify(schema)) as JsonSchemaNode), title };
}
