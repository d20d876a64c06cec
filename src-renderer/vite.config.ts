import path from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/** Builds the console alone (what `npm start` and the e2e tests need); `electron-vite build` builds it too. */
export default defineConfig({
  root: __dirname,
  base: '/',
  plugins: [react()],
  build: { outDir: path.resolve(__dirname, '../out/renderer'), emptyOutDir: true },
})
