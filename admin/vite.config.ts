import { utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

const gateway = process.env.GATEWAY_URL ?? 'http://localhost:8000';
const outDir = path.resolve(__dirname, '../dist/admin');

/**
 * Writes dist/admin.built once every file of a build is written, dated when the build began: `npm start`
 * (scripts/start.mjs) builds the admin again only when one of its inputs is newer, and a file saved during a build
 * is. It sits beside dist/admin, which every build empties.
 */
function buildRecord(): Plugin {
  let started = new Date();
  return {
    name: 'build-record',
    apply: 'build',
    buildStart() {
      started = new Date();
    },
    writeBundle() {
      const record = `${outDir}.built`;
      writeFileSync(record, `${started.toISOString()}\n`);
      utimesSync(record, started, started);
    },
  };
}

/** The admin (index.html) and the GraphQL explorer (graphiql/index.html), built into dist/admin for the gateway to serve. */
export default defineConfig({
  root: __dirname,
  base: '/',
  plugins: [
    react(),
    // Brotli and gzip copies of the hashed files, made once here at the highest levels, so the gateway answers
    // `Accept-Encoding` without compressing anything per request. index.html stays as it is: it is tiny and
    // is never cached.
    compression({
      include: /^assets\/.+\.(js|css|svg|json)$/,
      threshold: 1024,
      algorithms: ['brotliCompress', 'gzip'],
      logLevel: 'silent',
    }),
    buildRecord(),
  ],
  build: {
    outDir,
    emptyOutDir: true,
    rollupOptions: {
      input: {
        admin: path.resolve(__dirname, 'index.html'),
        graphiql: path.resolve(__dirname, 'graphiql/index.html'),
      },
    },
  },
  // `npm run dev`: hot reload here, API calls go to the gateway.
  server: {
    port: 5173,
    proxy: { '/api': gateway, '/graphql': gateway, '/docs': gateway },
  },
});
