import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { antdStaticStyles } from './vite-plugins/antd-static-styles';
import { appShell } from './vite-plugins/app-shell';
import { routePreloads } from './vite-plugins/route-preloads';

const backend = process.env.TECHIT_API_URL ?? 'http://localhost:3000';

/** theme-boot.js inline: the same script without a render-blocking request of its own. */
function inlineThemeBoot(): Plugin {
  const tag = '<script src="/theme-boot.js"></script>';
  return {
    name: 'techit-inline-theme-boot',
    transformIndexHtml(html) {
      if (!html.includes(tag)) throw new Error(`techit-inline-theme-boot: index.html no longer has ${tag}`);
      const script = readFileSync(new URL('public/theme-boot.js', import.meta.url), 'utf8');
      return html.replace(tag, () => `<script>${script.trim()}</script>`);
    },
  };
}

export default defineConfig({
  plugins: [antdStaticStyles(), react(), inlineThemeBoot(), appShell(), routePreloads()],
  resolve: {
    // The contract is TypeScript source shared with the backend; Vite compiles it with the app.
    alias: { '@techit/contract': fileURLToPath(new URL('../contract/src', import.meta.url)) },
  },
  server: {
    proxy: { '/api': backend, '/uploads': backend },
  },
  build: {
    sourcemap: true,
    // e2e/tests/bundle-budget.test.ts walks it to weigh what the first page downloads.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Libraries change far less often than the app: in chunks of their own they stay cached
          // across releases. Only what the shell itself loads ($initial), so that a page's library
          // code (forms, tabs, selects) never moves into the first download.
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/,
              tags: ['$initial'],
              priority: 2,
            },
            {
              name: 'antd',
              test: /[\\/]node_modules[\\/](antd|@ant-design|@rc-component|@babel[\\/]runtime|stylis|@emotion|clsx|is-mobile)[\\/]/,
              tags: ['$initial'],
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
