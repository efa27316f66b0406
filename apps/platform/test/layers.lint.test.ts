import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';

// The layer rule of eslint.config.js (grpc/ -> domain/ -> persistence/, no SQL
// in domain/) run on snippets placed, by name, where a service's files live.
// The files need not exist: ESLint picks the rules by path.
const eslint = new ESLint({ cwd: new URL('../../..', import.meta.url).pathname });
const LAYER_RULES = new Set(['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax']);

async function layerProblems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return result.messages.filter((m) => m.ruleId && LAYER_RULES.has(m.ruleId)).map((m) => m.message);
}

describe('layer lint rule', () => {
  it.each(['catalog', 'customers', 'orders'])('fails a persistence -> domain import in %s, type-only included', async (svc) => {
    const path = `apps/${svc}/src/persistence/example.repository.ts`;
    const value = await layerProblems(path, "import { rule } from '../domain/rules';\nexport const x = rule;\n");
    const type = await layerProblems(path, "import type { Rule } from '../domain/rules/rule';\nexport type X = Rule;\n");
    expect(value).toEqual([expect.stringMatching(/persistence\/ never imports domain\//)]);
    expect(type).toEqual([expect.stringMatching(/persistence\/ never imports domain\//)]);
  });

  it('fails a domain -> grpc import and a persistence -> grpc import', async () => {
    expect(await layerProblems('apps/orders/src/domain/x.ts', "import { h } from '../grpc/mappers';\nexport const y = h;\n")).toHaveLength(1);
    expect(await layerProblems('apps/orders/src/persistence/x.ts', "import { h } from '../grpc/mappers';\nexport const y = h;\n")).toHaveLength(1);
  });

  it('fails SQL in a domain file: statements run and SQL text in strings or templates', async () => {
    const path = 'apps/customers/src/domain/sessions.ts';
    const run = await layerProblems(path, 'export const f = (em: any) => em.execute(q);\n');
    const literal = await layerProblems(path, "export const q = 'delete from \"customers\".\"sessions\" where id = ?';\n");
    const template = await layerProblems(path, 'export const q = (t: string) => `select id from ${t} where id = ?`;\n');
    expect(run).toEqual([expect.stringMatching(/No SQL in domain/)]);
    expect(literal).toEqual([expect.stringMatching(/No SQL text in domain/)]);
    expect(template).toEqual([expect.stringMatching(/No SQL text in domain/)]);
  });

  it('has no exemptions: every service domain file is under the rule', async () => {
    for (const svc of ['customers', 'catalog', 'orders', 'payments', 'cart', 'fulfillment', 'notifications']) {
      const config = await eslint.calculateConfigForFile(`apps/${svc}/src/domain/any/file.ts`);
      expect([svc, config.rules['no-restricted-syntax']?.[0]]).toEqual([svc, 2]);
    }
    for (const file of ['customer-admin.ts', 'rate-limiter.ts', 'sessions.ts']) {
      const config = await eslint.calculateConfigForFile(`apps/customers/src/domain/${file}`);
      expect([file, config.rules['no-restricted-syntax']?.[0]]).toEqual([file, 2]);
    }
  });

  it('passes the allowed direction: persistence types in domain/, plain code in persistence/', async () => {
    expect(await layerProblems('apps/orders/src/domain/x.ts', "import type { Order } from '../persistence/order-records';\nexport type O = Order;\n")).toEqual([]);
    expect(await layerProblems('apps/orders/src/persistence/x.ts', "export const q = 'select 1 from \"orders\".\"orders\"';\n")).toEqual([]);
  });
});
