import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const gateway = process.env.GATEWAY_URL ?? 'http://localhost:8000';

/** The admin (index.html) and the GraphQL explorer (graphiql/index.html), built into dist/admin for the gateway to serve. */
export default defineConfig({
  root: __dirname,
  base: '/',
  plugins: [react()],
  build: {
    outDir: path.resolve(__dirname, '../dist/admin'),
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
