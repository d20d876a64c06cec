import { parentPort } from 'node:worker_threads'

/** A worker entry for the pool's own tests: `echo` answers at once, `hang` never does (a stuck parser). */
parentPort?.on('message', (message: { id: number; task: string; input: unknown }) => {
  if (message.task === 'hang') for (;;);
  parentPort?.postMessage({ id: message.id, ok: true, result: message.input })
})
