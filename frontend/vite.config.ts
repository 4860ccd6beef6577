import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { antdStaticStyles } from './vite-plugins/antd-static-styles';
import { appShell } from './vite-plugins/app-shell';
import { bootScript } from './vite-plugins/boot-script';
import { routePreloads } from './vite-plugins/route-preloads';

const backend = process.env.TECHIT_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  // bootScript last: it moves every script the others put in index.html into a file of its own.
  plugins: [antdStaticStyles(), react(), appShell(), routePreloads(), bootScript()],
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
