import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import codegen from '../../codegen';
import { printedSchema } from '../../gateway/emit-schema';

describe('generated files', () => {
  it('schema/schema.graphql is the schema the resolvers build (run `npm run schema`)', async () => {
    expect(readFileSync('schema/schema.graphql', 'utf8')).toBe(await printedSchema());
  });

  it('schema/generated/ is what codegen derives from it (run `npm run schema`)', () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'codegen-'));
    execFileSync('npx', ['graphql-codegen', '--config', 'tests/support/codegen-check.ts'], {
      env: { ...process.env, CODEGEN_TARGET: out },
      stdio: 'pipe',
    });
    const generated = Object.keys(codegen.generates);
    expect(generated).toEqual(
      expect.arrayContaining([
        'schema/generated/graphql.ts',
        'schema/generated/description.ts',
        'schema/generated/mutations.ts',
      ]),
    );
    expect(readdirSync('schema/generated').sort()).toEqual(generated.map((file) => path.basename(file)).sort());
    for (const file of generated) {
      expect(readFileSync(path.join(out, path.basename(file)), 'utf8'), file).toBe(readFileSync(file, 'utf8'));
    }
  }, 60_000);
});
