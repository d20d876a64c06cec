import { parentPort } from 'node:worker_threads'
import { workerTasks } from './worker-tasks'

/** Worker-thread entry: runs one named task per message and answers with its result or its error message. */
parentPort?.on('message', async (message: { id: number; task: string; input: unknown }) => {
  const task = (workerTasks as Record<string, (input: unknown) => unknown>)[message.task]
  try {
    if (!task) throw new Error(`Unknown worker task: ${message.task}`)
    parentPort?.postMessage({ id: message.id, ok: true, result: await task(message.input) })
  } catch (error) {
    parentPort?.postMessage({
      id: message.id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    })
  }
})
