import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../../gateway/emit-schema';

describe('generated files', () => {
  it('schema/schema.graphql is the schema the resolvers build (run `npm run schema`)', () => {
    expect(readFileSync('schema/schema.graphql', 'utf8')).toBe(printedSchema());
  });

  it('schema/generated/graphql.ts is what codegen derives from it (run `npm run schema`)', () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'codegen-'));
    const target = path.join(out, 'graphql.ts');
    execFileSync('npx', ['graphql-codegen', '--config', 'tests/support/codegen-check.ts'], {
      env: { ...process.env, CODEGEN_TARGET: target },
      stdio: 'pipe',
    });
    expect(readFileSync(target, 'utf8')).toBe(readFileSync('schema/generated/graphql.ts', 'utf8'));
  }, 60_000);
});
