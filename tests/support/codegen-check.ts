import type { CodegenConfig } from '@graphql-codegen/cli';
import base from '../../codegen';

/** The project's codegen, written to CODEGEN_TARGET instead, so a test can compare it with the committed file. */
const [[, output]] = Object.entries(base.generates);
const config: CodegenConfig = { ...base, generates: { [process.env.CODEGEN_TARGET!]: output } };
export default config;
