import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

/**
 * Desktop build. The main bundle holds the Electron shell and the whole server; `worker.js` beside it is the
 * worker-thread entry the server's worker pool loads, `task-process.js` the child process PaddleOCR runs in. Native modules stay external (they are `dependencies`).
 */
export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/index.ts'),
          worker: resolve(__dirname, 'src-server/worker.ts'),
          'task-process': resolve(__dirname, 'src-server/task-process.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-main/preload.ts') },
        // Sandboxed preloads must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    build: { rollupOptions: { input: resolve(__dirname, 'src-renderer/index.html') } },
    plugins: [react()],
  },
})
