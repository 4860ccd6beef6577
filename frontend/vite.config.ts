import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const backend = process.env.TECHIT_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // The contract is TypeScript source shared with the backend; Vite compiles it with the app.
    alias: { '@techit/contract': fileURLToPath(new URL('../contract/src', import.meta.url)) },
  },
  server: {
    proxy: { '/api': backend, '/uploads': backend },
  },
  build: {
    sourcemap: true,
  },
});
