import type { CodegenConfig } from '@graphql-codegen/cli';
import path from 'node:path';
import base from '../../codegen';

/**
 * The project's codegen, every output written under CODEGEN_TARGET (keeping its file name) instead, so a test can
 * compare each with the committed file.
 */
const config: CodegenConfig = {
  ...base,
  generates: Object.fromEntries(
    Object.entries(base.generates).map(([file, output]) => [
      path.join(process.env.CODEGEN_TARGET!, path.basename(file)),
      output,
    ]),
  ),
};
export default config;
