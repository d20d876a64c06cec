import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'src-server/**/*.test.ts',
      'src-main/**/*.test.ts',
      'test/**/*.test.ts',
      'src-renderer/src/**/*.test.ts',
    ],
    environment: 'node',
    pool: 'forks',
    // Two cores: more parallel files only thrash. Each file builds its own server on its own temp dir.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
