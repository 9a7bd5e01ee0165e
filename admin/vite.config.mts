import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin, type Rolldown } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { resources, types } from '../schema/generated/description';
import { mutations } from '../schema/generated/mutations';

const gateway = process.env.GATEWAY_URL ?? 'http://localhost:8000';
const outDir = path.resolve(import.meta.dirname, '../dist/admin');

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

/** The modules a signed-in start opens: the app, and a list screen (preload.ts loads the opened one). */
const APP = /[\\/]admin[\\/]src[\\/]start\.tsx$/;
/** A list screen: the declared one (crud/DeclaredList.tsx) and any written by hand (admin/src/screens.ts), `*List.tsx`. */
const LIST_SCREEN = /[\\/]admin[\\/]src[\\/].+List\.tsx$/;

/**
 * index.html names the chunks a signed-in first screen needs, not only the start script's own imports: the app and
 * the list screens are imported dynamically (so a signed-in start can ask for its rows before any of them runs), which
 * would otherwise leave the browser to discover them only once the start script has run. With `modulepreload` links
 * they are fetched beside the start script, from the first bytes of the page.
 *
 * Named: the app's chunks, and those every list screen needs. What one screen alone needs (the users screen's password
 * field, say) is fetched by the start script for the screen opened (preload.ts), not by every first screen.
 */
function preloadFirstScreen(): Plugin {
  return {
    name: 'preload-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk }) {
        if (!bundle || !chunk) return;
        /** A chunk and every chunk it imports statically. */
        const closure = (fileName: string, files = new Set<string>()) => {
          const found = bundle[fileName];
          if (files.has(fileName) || found?.type !== 'chunk') return files;
          files.add(fileName);
          found.imports.forEach((name) => closure(name, files));
          return files;
        };
        const entries = chunk.dynamicImports.flatMap((fileName) => {
          const found = bundle[fileName];
          return found?.type === 'chunk' ? [{ fileName, id: found.facadeModuleId ?? '' }] : [];
        });
        const app = entries.filter(({ id }) => APP.test(id)).map(({ fileName }) => closure(fileName));
        const screens = entries.filter(({ id }) => LIST_SCREEN.test(id)).map(({ fileName }) => closure(fileName));
        // The GraphQL explorer's page opens neither.
        if (!app.length && !screens.length) return;
        if (app.length !== 1 || screens.length < 1) {
          throw new Error(`preload-first-screen: found ${app.length} app and ${screens.length} list screen chunks`);
        }
        const shared = [...screens[0]].filter((fileName) => screens.every((files) => files.has(fileName)));
        const files = new Set([...app[0], ...shared]);
        // The start script's static imports are linked already.
        for (const fileName of [chunk.fileName, ...chunk.imports]) files.delete(fileName);
        return [...files].map((fileName) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/**
 * Every `Tooltip` taken from '@mui/material' (react-admin's included) is admin/src/layout/Tooltip.tsx, which mounts
 * MUI's own once the app has been painted: a tooltip on the first screen would otherwise cost a second render of the
 * whole app before that paint (the module says why). Only for builds: in development the dependencies are bundled
 * ahead of time, without plugins, and tests run MUI's Tooltip itself.
 */
function deferTooltips(): Plugin {
  const deferred = path.resolve(import.meta.dirname, 'src/layout/Tooltip.tsx');
  return {
    name: 'defer-tooltips',
    apply: 'build',
    enforce: 'pre',
    // Whatever names it: the '@mui/material' index, a deep '@mui/material/Tooltip' (react-admin's refresh button),
    // or a relative path inside MUI. Only this module itself reaches MUI's.
    async resolveId(source, importer, options) {
      if (!importer || importer === deferred || !source.includes('Tooltip')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && /[\\/]@mui[\\/]material[\\/]esm[\\/]Tooltip[\\/]index\.js$/.test(resolved.id)
        ? deferred
        : null;
    },
  };
}

/**
 * jsonexport, which react-admin's default exporter imports, is admin/src/crud/jsonexport.ts: the same writer, fetched
 * when an export needs it (none does: every list passes its own exporter) instead of with the first screen.
 */
function deferCsvWriter(): Plugin {
  const deferred = path.resolve(import.meta.dirname, 'src/crud/jsonexport.ts');
  return {
    name: 'defer-csv-writer',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source, importer) => (importer !== deferred && /^jsonexport(\/|$)/.test(source) ? deferred : null),
  };
}

/** The build's renderer of the public pages (src/prerendered/prerender.tsx), as a module of its own. */
type Renderer = typeof import('./src/prerendered/prerender');

/** src/prerendered/prerender.tsx built for Node with every dependency inside (`ssr.noExternal`), and loaded. */
async function loadRenderer(): Promise<Renderer> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'admin-prerender-'));
  try {
    await build({
      configFile: false,
      root: import.meta.dirname,
      logLevel: 'warn',
      // The same module graph as the app's build: what the page's first render draws must be what the app draws.
      plugins: [react(), deferTooltips(), deferCsvWriter()],
      ssr: { noExternal: true },
      build: {
        ssr: path.resolve(import.meta.dirname, 'src/prerendered/prerender.tsx'),
        outDir,
        emptyOutDir: true,
        // One file: the app's lazy pages are imported once the directory is gone.
        rolldownOptions: { output: { codeSplitting: false } },
      },
    });
    return (await import(pathToFileURL(path.join(outDir, 'prerender.mjs')).href)) as Renderer;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** src/prerendered/loader.ts as a minified classic script: it runs where the page names it, before the first paint. */
async function buildLoader(): Promise<string> {
  const output = (await build({
    configFile: false,
    root: import.meta.dirname,
    logLevel: 'warn',
    build: {
      write: false,
      minify: true,
      lib: { entry: path.resolve(import.meta.dirname, 'src/prerendered/loader.ts'), formats: ['iife'], name: 'loader' },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const [chunk] = (Array.isArray(output) ? output[0]! : output).output;
  return chunk.code;
}

/**
 * The public pages (src/prerendered/prerender.tsx, `PRERENDERED_PAGES`) written already rendered, as
 * pages/<name>.html, which the gateway answers for their addresses (gateway/admin-files.ts). A signed-out visitor
 * sees the page with its first bytes, and runs none of the app's code (React, MUI, react-admin and the app, most of
 * which an untouched page would never run) until they use the page.
 *
 * Each page is the admin's page (index.html) with the page in both appearances, each in a <template>, and one small
 * script instead of the app's (src/prerendered/loader.ts) that shows the visitor's appearance and loads the app on
 * the first sign of use. The app then draws the same page and takes the drawn one over (src/prerendered/takeOver.ts).
 * No modulepreload links: those are for a signed-in start.
 */
function prerenderPublicPages(): Plugin {
  return {
    name: 'prerender-public-pages',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') return;
      const html = String(index.source);
      const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html)?.[1];
      if (!entry) throw new Error('prerender-public-pages: no entry script in index.html');
      const loader = this.getFileName(
        this.emitFile({ type: 'asset', name: 'prerendered.js', source: await buildLoader() }),
      );
      const shell = html
        .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
        .replace(/\s*<script type="module"[^>]*><\/script>/, '');
      const { renderPage, PRERENDERED_PAGES, PRERENDERED_ID, APPEARANCES } = await loadRenderer();
      for (const location of PRERENDERED_PAGES) {
        const templates = await Promise.all(
          APPEARANCES.map(
            async (appearance) =>
              `<template id="${PRERENDERED_ID}-${appearance}">${await renderPage(location, appearance)}</template>`,
          ),
        );
        const body = `<div id="root"></div>${templates.join('')}<script src="/${loader}" data-entry="${entry}"></script>`;
        if (!shell.includes('<div id="root"></div>')) throw new Error('prerender-public-pages: no #root in index.html');
        this.emitFile({
          type: 'asset',
          fileName: `pages${location}.html`,
          source: shell.replace('<div id="root"></div>', body),
        });
      }
    },
  };
}

/**
 * Warns of each text a declared resource's screen reads that its labels file (src/labels/<screen>.ts) does not give:
 * the screen then shows words made from the key (src/i18n/missing.ts), which a person should choose instead.
 */
interface FieldShown {
  listed?: boolean;
  filterable?: boolean;
  values?: readonly string[];
}

function labelsCheck(): Plugin {
  return {
    name: 'labels-check',
    apply: 'build',
    buildStart() {
      for (const [type, resource] of Object.entries(resources) as [string, { screen: string; menu?: number }][]) {
        const file = path.resolve(import.meta.dirname, 'src/labels', `${resource.screen}.ts`);
        const own = existsSync(file) ? readFileSync(file, 'utf8') : '';
        // With the texts it takes from the modules it imports (an order's states from the staff notes' catalogue).
        const imported = [...own.matchAll(/from '(\.[^']+)'/g)]
          .map((m) => path.resolve(path.dirname(file), `${m[1]}.ts`))
          .filter((module) => existsSync(module))
          .map((module) => readFileSync(module, 'utf8'));
        const text = [own, ...imported].join('\n');
        // A key as a labels file writes it: `name:`, `'name':` or `"name":`.
        const has = (key: string) => new RegExp(`(^|[\\s{,])['"]?${key}['"]?\\s*:`, 'm').test(text);
        const fields = (types as Record<string, { fields: Record<string, FieldShown> }>)[type].fields;
        const written = ['create', 'update'].flatMap((verb) =>
          Object.keys((mutations as Record<string, { args: object }>)[`${verb}${type}`]?.args ?? {}),
        );
        const missing = [...(resource.menu === 0 ? [] : ['menu']), ...['name', 'title', 'table', 'empty']].filter(
          (key) => !has(key),
        );
        for (const [name, field] of Object.entries(fields)) {
          // Only what the screen shows: a column, a filter or an input.
          if (!field.listed && !field.filterable && !written.includes(name)) continue;
          if (name !== 'id' && !has(name)) missing.push(`fields.${name}`);
          for (const value of field.values ?? []) if (!has(value)) missing.push(`values.${name}.${value}`);
        }
        if (missing.length)
          this.warn(`src/labels/${resource.screen}.ts${own ? '' : ' (missing)'} gives no ${missing.join(', ')}`);
      }
    },
  };
}

/** The admin (index.html) and the GraphQL explorer (graphiql/index.html), built into dist/admin for the gateway to serve. */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [
    react(),
    deferTooltips(),
    deferCsvWriter(),
    preloadFirstScreen(),
    prerenderPublicPages(),
    // Brotli and gzip copies of the hashed files and of the admin's page (over 1 KiB, with its preload links),
    // made once here at the highest levels, so the gateway answers `Accept-Encoding` without compressing anything
    // per request.
    compression({
      include: /^(assets\/.+\.(js|css|svg|json)|index\.html|pages\/.+\.html)$/,
      threshold: 1024,
      algorithms: ['brotliCompress', 'gzip'],
      logLevel: 'silent',
    }),
    buildRecord(),
    labelsCheck(),
  ],
  build: {
    outDir,
    emptyOutDir: true,
    // The GraphQL explorer's page loads GraphiQL as one chunk past Vite's 500 kB warning; only that page, opened by a
    // developer, loads it, and the benchmark holds the admin's own first screen to a stricter budget (bench/README.md,
    // "Targets").
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      input: {
        admin: path.resolve(import.meta.dirname, 'index.html'),
        graphiql: path.resolve(import.meta.dirname, 'graphiql/index.html'),
      },
      onwarn(warning, defaultHandler) {
        // GraphiQL's react-compiler-runtime opens with "use no memo", which only tells the React Compiler to leave
        // that file alone. This build does not run the React Compiler, so the directive dropped from the bundle
        // changes nothing.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && /[\\/]react-compiler-runtime[\\/]/.test(warning.id ?? ''))
          return;
        defaultHandler(warning);
      },
    },
  },
  // `npm run dev`: hot reload here, API calls go to the gateway.
  server: {
    port: 5173,
    proxy: { '/api': gateway, '/graphql': gateway, '/docs': gateway },
  },
});
