import { workerTasks } from './worker-tasks'

/**
 * Child-process entry (jobs/task-process.ts): runs the named tasks its parent sends over IPC and answers each with
 * its result or its error's message. It ends with its parent.
 */
process.on('message', async (message: { id: number; task: string; input: unknown }) => {
  const task = (workerTasks as Record<string, (input: unknown) => unknown>)[message.task]
  try {
    if (!task) throw new Error(`Unknown task: ${message.task}`)
    process.send?.({ id: message.id, result: await task(message.input) })
  } catch (error) {
    process.send?.({ id: message.id, error: error instanceof Error ? error.message : String(error) })
  }
})
process.on('disconnect', () => process.exit(0))
